import { cleanContentType, cleanFileName, contentDisposition, fileNameLength } from './file-name';

describe('file names', () => {
  it.each([
    ['invoice.pdf', 'invoice.pdf'],
    ['C:\\fakepath\\report.pdf', 'report.pdf'],
    ['/etc/passwd', 'passwd'],
    ['../..', ''],
    ['..', ''],
    ['  padded .txt ', 'padded .txt'],
    ['tab\there\u0000.txt', 'tabhere.txt'],
    ['e\u0301.txt', '\u00e9.txt'],
    ['', ''],
  ])('keeps %j as %j', (raw, cleaned) => {
    expect(cleanFileName(raw)).toBe(cleaned);
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    expect(fileNameLength('📎📎')).toBe(2);
  });

  it('names the file in Content-Disposition: an ASCII fallback and the exact name in filename*', () => {
    expect(contentDisposition('plain.pdf')).toBe(`attachment; filename="plain.pdf"; filename*=UTF-8''plain.pdf`);
    const header = contentDisposition('Fakturå "2026"; 100%\\x (1).pdf');
    expect(header).toMatch(/^attachment; filename="Faktur_ _2026_; 100__x \(1\)\.pdf"; filename\*=UTF-8''/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(header)![1])).toBe('Fakturå "2026"; 100%\\x (1).pdf');
    expect(header).not.toMatch(/[^\x20-\x7e]/);
  });

  it('keeps a plain media type and stores anything else as application/octet-stream', () => {
    expect(cleanContentType('application/PDF')).toBe('application/pdf');
    expect(cleanContentType('text/plain; charset=utf-8')).toBe('text/plain');
    expect(cleanContentType(undefined)).toBe('application/octet-stream');
    expect(cleanContentType('nonsense')).toBe('application/octet-stream');
    expect(cleanContentType('text/<script>')).toBe('application/octet-stream');
  });
});
