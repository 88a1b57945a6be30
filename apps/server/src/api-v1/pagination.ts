// Moved to lib/pagination.ts (one way of listing for every module, not only the /v1 routes'); this
// re-export keeps the stores that still import it here working until they import lib/.
export { listPage, type ListPage } from '../lib/pagination.ts';
