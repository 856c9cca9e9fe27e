import { checkTargetUrl, guardedLookup, isPrivateAddress } from './target-policy';

describe('webhook target policy', () => {
  it.each([
    '127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '::1', '::', 'fe80::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:a00:1::1', '[::1]',
  ])('treats %s as private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('treats %s as public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('checks names by what they resolve to, and allows everything http(s) when private targets are allowed', async () => {
    const resolve = async (host: string) => (host === 'public.test' ? ['93.184.215.14'] : ['93.184.215.14', '10.0.0.1']);
    expect(await checkTargetUrl('https://public.test/x', false, resolve)).toBeUndefined();
    expect(await checkTargetUrl('https://mixed.test/x', false, resolve)).toMatch(/private/);
    expect(await checkTargetUrl('http://127.0.0.1:3000/x', true, resolve)).toBeUndefined();
    expect(await checkTargetUrl('ftp://public.test/x', true, resolve)).toMatch(/http/);
  });

  it('refuses, at connection time, a name that resolves to a private address', async () => {
    const error = await new Promise<Error | null>((resolve) => guardedLookup('localhost', {}, (err) => resolve(err)));
    expect(error?.message).toMatch(/refused to connect to localhost/);
  });
});
