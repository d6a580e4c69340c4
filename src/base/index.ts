// What front doors may use of src/base: matching the names a bulk command was given.
export { isGlob, selectNames } from './select.js';
