/** What every pod of the system shares: its labels and its hardening (non-root, read-only root, /tmp only). */

export const selectorLabels = (app: string) => ({ 'app.kubernetes.io/name': app });
export const labels = (app: string, component: string) => ({
  ...selectorLabels(app),
  'app.kubernetes.io/component': component,
  'app.kubernetes.io/part-of': 'erp',
});

export const containerSecurity = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
};
export const podSecurity = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  seccompProfile: { type: 'RuntimeDefault' },
};
export const tmpVolume = { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } };
export const tmpMount = { name: 'tmp', mountPath: '/tmp' };
