import { PLANS } from '@schemacheck/contracts';

import type { Faq } from '../lib/json-ld';
import { maxFileText, priceText, rowsText, validationsText } from '../lib/plan-copy';

// Every FAQ on the public site. Pages render these lists and build their FAQPage JSON-LD from the
// same objects. Plan figures come from the plans module.

const { free, pro, business } = PLANS;

export const landingFaqs: Faq[] = [
  {
    question: 'What does SchemaCheck check?',
    answer:
      'You describe the fields a file should have: their names, types (text, whole number, number, true/false, date, email, URL or a fixed list of values) and rules such as required, length, range, decimal places, pattern, allowed values and uniqueness. SchemaCheck reads the CSV or JSON file and lists every value that breaks a rule, with its row and column (or JSON path), the value found and a plain-English message.',
  },
  {
    question: 'Is my data safe?',
    answer:
      'The CSV and JSON validator pages, and the Free plan’s workspace, check your file inside your browser, so it never leaves your device. In the paid plans’ workspace, files are sent over an encrypted connection, processed and deleted when validation finishes; the uploaded file itself is not kept. What is kept, for 90 days and only for you, is the result: its summary and error list, and on the Pro plan and above the full error report and the file’s valid and invalid rows for download.',
  },
  {
    question: 'Do I need a credit card to start?',
    answer: `No. The Free plan costs ${priceText(free)} and needs no card. Its workspace checks files of any size in your browser, so they never leave your device; its ${validationsText(free)} on files up to ${maxFileText(free)} and ${rowsText(free).toLowerCase()} apply only to what runs and is stored on our servers. It is also the way to try SchemaCheck before paying.`,
  },
  {
    question: 'Which file formats are supported?',
    answer:
      'CSV files with comma, semicolon, tab or pipe delimiters (detected automatically), in UTF-8, UTF-16 or Windows-1252, and JSON files holding an array of records, a single object or one record per line (NDJSON).',
  },
  {
    question: 'Can I reuse a schema?',
    answer: `Yes, on ${pro.label} and above you can save schemas and load them again. On any plan you can start from one of the eight free templates, or import a JSON Schema or Frictionless Table Schema you already have.`,
  },
  {
    question: 'Is there an API?',
    answer: `Yes. ${business.label} and Enterprise include a REST API with API keys and webhooks, so a pipeline can validate files automatically before they are loaded.`,
  },
  {
    question: 'How does billing work?',
    answer:
      'Paid plans are billed monthly in advance in pounds sterling (GBP). Payments are non-refundable, you can cancel at any time from your Profile page, and we give 30 days’ notice of any price change.',
  },
];

export const helpFaqs: Faq[] = [
  {
    question: 'How do I create a schema?',
    answer:
      'In the dashboard or on the CSV and JSON validator pages, add one field per column (or JSON property), pick its type and set its rules. You can also infer the fields from the first rows of your file, start from a template, or import a JSON Schema or Frictionless Table Schema.',
  },
  {
    question: 'Which file formats can I validate?',
    answer:
      'CSV (comma, semicolon, tab or pipe delimited; UTF-8, UTF-16 or Windows-1252), JSON (an array of records, a single object, or newline-delimited JSON) and Excel workbooks (.xlsx: the first sheet, or the one you pick; cells read as Excel shows them, errors named by cell such as Sheet1!D14). Any of them may be compressed with gzip (.gz) or sent in a .zip (pick the file when it holds several). Files must end in .csv, .json, .ndjson, .jsonl, .xlsx, .gz or .zip. The old .xls and the binary .xlsb formats are not read: save them as .xlsx or CSV. On the Pro plan and above, the rows without errors and the rows with errors can be downloaded beside the error report.',
  },
  {
    question: 'What are the plan limits?',
    answer: `Free: any file size in your browser (files never leave your device); on our servers ${validationsText(free)}, files up to ${maxFileText(free)} and ${rowsText(free).toLowerCase()}, one file at a time. ${pro.label} (${priceText(pro)}/month): ${validationsText(pro)}, ${maxFileText(pro)} and ${rowsText(pro).toLowerCase()}. ${business.label} (${priceText(business)}/month): ${validationsText(business)}, ${maxFileText(business)}, unlimited rows and the API. Enterprise: custom limits. Monthly counts reset on the 1st of each month.`,
  },
  {
    question: 'How do I use the API?',
    answer: `The REST API is part of ${business.label} and Enterprise. Create an API key on your Profile page (it starts with sc_ and is shown once), then send it as a Bearer token to the endpoints under /api/v1 described in the API documentation.`,
  },
  {
    question: 'How do I cancel my subscription?',
    answer:
      'Open your Profile page and cancel the plan there. Your paid plan stays active until the end of the month you have paid for, then your account moves to the Free plan. Payments already made are not refunded.',
  },
  {
    question: 'How do I delete my account?',
    answer:
      'Open your Profile page, go to the Danger Zone and choose to delete your account; you confirm with your password. Your account data is removed within 30 days.',
  },
  {
    question: 'What validation types are there?',
    answer:
      'Text (string), whole number (integer), number, true/false (boolean), date or date-time in a format you choose, email, URL and a fixed list of values (enum). Any field can be required or unique; text can have length limits, a pattern and allowed characters; numbers can have a range and a number of decimal places; dates can have a range and refuse future or past dates.',
  },
  {
    question: 'Why is my file rejected before validation starts?',
    answer:
      'On a signed-in plan, a file larger than your plan’s file size, with more rows than your plan allows, or a validation beyond your monthly count is refused with a message saying which limit was reached. The in-browser validators on the CSV and JSON validator pages have no such limits.',
  },
];

export const csvValidatorFaqs: Faq[] = [
  {
    question: 'Is this CSV validator free?',
    answer:
      'Yes. The validator on this page is free, needs no account and runs entirely in your browser, so your file is never uploaded.',
  },
  {
    question: 'How large a CSV file can I check here?',
    answer:
      'There is no size limit on this page: the file is read from your disk in small pieces by a background worker, so only your device’s speed sets how long a large file takes.',
  },
  {
    question: 'Which delimiters and encodings are supported?',
    answer:
      'Comma, semicolon, tab and pipe are detected automatically. UTF-8 (with or without a byte order mark), UTF-16 and Windows-1252 are read; a warning tells you when the file was not UTF-8.',
  },
  {
    question: 'How are rows numbered?',
    answer:
      'As a spreadsheet shows them: the header is row 1 and the first record is row 2. A record that spans several lines keeps one row number.',
  },
];

export const jsonValidatorFaqs: Faq[] = [
  {
    question: 'Is this JSON validator free?',
    answer:
      'Yes. It is free, needs no account and runs in your browser: the file never leaves your device.',
  },
  {
    question: 'What JSON shapes can I validate?',
    answer:
      'An array of records, a single object, or newline-delimited JSON (one record per line). Nested properties are reached with dotted names such as address.postcode.',
  },
  {
    question: 'Does it find syntax errors?',
    answer:
      'Yes. Trailing commas, single quotes and unclosed brackets are reported with their line and column, and the records before the error are still checked.',
  },
  {
    question: 'Can I use my existing JSON Schema?',
    answer:
      'Yes. Import a JSON Schema (type, required, properties, enum, minimum, maximum, minLength, maxLength, pattern and the email, uri, date and date-time formats) and it becomes an editable SchemaCheck schema.',
  },
];

export const csvSchemaFaqs: Faq[] = [
  {
    question: 'What is a CSV schema?',
    answer:
      'A description of the columns a CSV file must have and the rules each value must follow: for example that sku is required and unique, price is a number with at most two decimal places, and date is written YYYY-MM-DD.',
  },
  {
    question: 'Can headers be checked exactly?',
    answer:
      'Yes. Every column in the schema must appear in the header with exactly that name. You can also require the schema’s column order and refuse columns the schema does not list.',
  },
  {
    question: 'Do you support Frictionless Table Schema?',
    answer:
      'Yes. Import a Table Schema and its fields, types and constraints become a SchemaCheck schema you can edit and save.',
  },
  {
    question: 'Can I save schemas for next time?',
    answer: `Saved schemas come with ${pro.label} (${priceText(pro)}/month) and above; on the Free plan you can start from a template or import a schema each time.`,
  },
];

export const jsonSchemaFaqs: Faq[] = [
  {
    question: 'Which JSON Schema keywords are supported?',
    answer:
      'type, required, properties (including nested objects), additionalProperties, enum, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, multipleOf for decimal places, and the email, uri, date and date-time formats. Keywords that cannot be applied are named in a warning rather than silently ignored.',
  },
  {
    question: 'How are errors located?',
    answer:
      'Each error has its record number and a JSON path such as $[41].address.postcode, plus the value found and a plain-English message.',
  },
  {
    question: 'Can it validate NDJSON?',
    answer: 'Yes, one record per line, as well as arrays of records and single objects.',
  },
  {
    question: 'Are patterns safe to run?',
    answer:
      'Patterns run on a linear-time regular expression engine, so no pattern can make a validation hang. Look-ahead and back-references are refused with a clear message.',
  },
];

export const validationApiFaqs: Faq[] = [
  {
    question: 'Which plans include the API?',
    answer: `${business.label} (${priceText(business)}/month, ${validationsText(business)}) and Enterprise.`,
  },
  {
    question: 'How do I authenticate?',
    answer:
      'Create an API key on your Profile page. Keys start with sc_ and are shown once; send them in the Authorization header as a Bearer token.',
  },
  {
    question: 'How large a file can the API validate?',
    answer:
      'Files up to 5 MB and 50,000 rows are validated in the request itself; larger files become asynchronous jobs whose result you fetch later or receive by webhook.',
  },
  {
    question: 'Do webhooks tell me when a job finishes?',
    answer:
      'Yes. Register a webhook URL and SchemaCheck sends a signed request when a validation completes or fails, so your pipeline does not have to poll.',
  },
];

export const csvGuideFaqs: Faq[] = [
  {
    question: 'Why does my import say the headers do not match?',
    answer:
      'Header names must match the expected names exactly, including case, spaces and punctuation: E-mail is not email. Rename the column in the first row of the file.',
  },
  {
    question: 'How do I stop commas inside values breaking my CSV?',
    answer:
      'Wrap the value in double quotes ("Desk, oak"). A double quote inside a quoted value is written twice ("He said ""hi"""). Spreadsheet programs do this for you when they save as CSV.',
  },
  {
    question: 'How do I save a CSV as UTF-8 without a BOM?',
    answer:
      'In Excel choose CSV UTF-8 and, if your importer refuses the byte order mark, re-save it in a text editor as UTF-8 without BOM. In Google Sheets, File > Download > Comma-separated values gives UTF-8 without a BOM.',
  },
  {
    question: 'Can I download the list of errors?',
    answer: `The in-browser validator builds a CSV error report on your device. In the workspace, downloadable error reports come with ${pro.label} and above.`,
  },
];

export const jsonGuideFaqs: Faq[] = [
  {
    question: 'Why is my JSON invalid when it looks fine?',
    answer:
      'The usual causes are a trailing comma after the last item, single quotes instead of double quotes, or a missing closing bracket. SchemaCheck names the line and column of the first syntax error in a record.',
  },
  {
    question: 'Why is "42" not a number?',
    answer:
      'In JSON, "42" in quotes is text. If a field must be a whole number, write 42 without quotes; SchemaCheck reports "Must be a whole number, written without quotes".',
  },
  {
    question: 'What are additional properties?',
    answer:
      'Properties the schema does not list. They are allowed by default; switch additional properties off to report each one as "Unexpected property".',
  },
];

export const templateFaqs: Faq[] = [
  {
    question: 'How do I use a template?',
    answer:
      'Choose Use this template to open the validator with the schema loaded and the template’s sample file ready, or copy the schema JSON and import it in the schema builder.',
  },
  {
    question: 'Can I change a template?',
    answer:
      'Yes. A template is an ordinary schema: add or remove fields, rename columns and change rules to fit your file. On paid plans you can save the result.',
  },
  {
    question: 'Why do the sample files have errors?',
    answer:
      'Each sample contains a couple of deliberate mistakes, listed on its card, so you can see what the report looks like before you try your own file.',
  },
  {
    question: 'Are the templates free?',
    answer: 'Yes, on every plan and on the free in-browser validators.',
  },
];

export const compareFaqs: Faq[] = [
  {
    question: 'How is SchemaCheck different from an embeddable importer?',
    answer:
      'Importers such as Flatfile, OneSchema and CSVBox are components you add to your own application so that your customers can upload spreadsheets into it. SchemaCheck is a tool you and your team use directly (in the browser, in the workspace or through its API) to check files before they go anywhere.',
  },
  {
    question: 'How is it different from Frictionless, CSVLint or qsv?',
    answer:
      'Those are open-source libraries and command-line tools for people comfortable with Python, Ruby or a terminal. SchemaCheck gives the same kind of schema checks a form-based schema builder, a browser validator and a hosted API, and it reads Frictionless Table Schema and JSON Schema so existing schemas carry over.',
  },
  {
    question: 'How were the other tools described?',
    answer:
      'Only from each tool’s own public documentation, on the date given above the table. Products change; check their documentation before deciding.',
  },
];

export const industryFaqs: Faq[] = [
  {
    question: 'Is SchemaCheck GDPR compliant?',
    answer:
      'SchemaCheck is designed around data minimisation: files are processed in memory and deleted after validation, never stored; the in-browser validators do not upload files at all. We keep only validation results (summaries and error lists; on paid plans also the full error report and the valid and invalid rows, for you to download) for 90 days, and your account details. See the Privacy Policy for the legal bases, your rights and how to exercise them.',
  },
  {
    question: 'Do you store personal data from my files?',
    answer:
      'Uploaded files are not kept. The error list of a validation can contain the offending values (for example an invalid email address), and on the Pro plan and above the valid and invalid rows of the file are kept with the result for you to download; all of it is kept for 90 days and then deleted, and only you can see it.',
  },
  {
    question: 'Can I validate files without sending them to you?',
    answer:
      'Yes. The CSV and JSON validator pages run the same engine inside your browser; nothing is uploaded.',
  },
  {
    question: 'What happens when I delete my account?',
    answer:
      'Your account, saved schemas, API keys and validation results are removed within 30 days of deletion.',
  },
];

export const buyingGuideFaqs: Faq[] = [
  {
    question: 'Which plan should I start with?',
    answer:
      'Start on Free with real files. If you hit the file size, row or monthly limit, or want saved schemas and downloadable reports, move to Pro; choose Business when a pipeline needs the API.',
  },
  {
    question: 'Is there a free trial of paid plans?',
    answer: 'The Free plan is the trial: it needs no card and never expires.',
  },
  {
    question: 'Can I pay annually?',
    answer: 'Not yet: all plans are billed monthly in advance in GBP.',
  },
  {
    question: 'Can I get a refund?',
    answer:
      'Payments are non-refundable. When you cancel, your plan stays active until the end of the month you have paid for.',
  },
  {
    question: 'Will prices change?',
    answer: 'If they do, we tell you at least 30 days before the new price applies.',
  },
];
