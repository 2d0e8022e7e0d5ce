/** Every conformance suite; each entry-point test file registers all of them. */
export { describeComputeSuite } from './compute.js';
export { describeFindAllSuite } from './findAll.js';
export { describePermutationSuite } from './permutation.js';
export { describeErrorSuite } from './errors.js';
export { describeHashArraySuite } from './hashArray.js';
