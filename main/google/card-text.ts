/** The Google sources' cards write values with the shared card-text functions (common/card-text.ts). */
export { cardLine, quoted, quotedId, quotedUnless } from '../../common/card-text.js';
