/** Public entry of the device login module (RFC 8628 for command-line clients). */
export { devicesRouter, deviceVerificationUri, DEVICE_GRANT_TYPE } from './procedures.js';
export { decideDeviceGrant, findPendingGrant, DeviceGrantError } from './grants.js';
export { formatUserCode, normaliseUserCode } from './user-code.js';
