export const SITE_NAME = 'SchemaCheck';
export const COPYRIGHT_YEAR = 2024;

/** Where "Contact support" and "Contact Sales" mail links go; override at build time. */
export const SUPPORT_EMAIL: string =
  import.meta.env.VITE_SUPPORT_EMAIL || 'support@schemacheck.app';
export const SALES_EMAIL: string = import.meta.env.VITE_SALES_EMAIL || 'sales@schemacheck.app';

export const SITE_DESCRIPTION =
  'Define a schema, drop a CSV or JSON file and see every header, type and format error by row and column before you import.';
