export { createGmailSource, GmailSource, type GmailSourceOptions } from './source.js';
