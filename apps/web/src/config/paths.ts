// Every route of the app in one place (docs/product.md#screens-and-routes). Links and the router read these.
export const paths = {
  home: '/',
  auth: '/auth',
  register: '/auth?tab=register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  privacy: '/privacy',
  terms: '/terms',
  help: '/help',
  csvValidator: '/csv-validator',
  jsonValidator: '/json-validator',
  csvSchemaValidator: '/csv-schema-validator',
  jsonSchemaValidator: '/json-schema-validator',
  validationApi: '/validation-api',
  csvUploadErrors: '/csv-upload-errors',
  jsonValidationErrors: '/json-validation-errors',
  templates: '/templates',
  compare: '/compare',
  industries: '/industries',
  buyingGuide: '/buying-guide',
  stripeSuccess: '/stripe/success',
  dashboard: '/dashboard',
  profile: '/profile',
  apiDocs: '/api-docs',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
