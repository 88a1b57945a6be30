// Passwords that meet SPEC §5's composition rules (lower, upper, digit, special, 8+) yet appear
// near the top of every breach list (AUTH-02, ASVS 6.2.4). The rules already refuse "password" or
// "123456"; what gets through them is a common word, capitalised, with a number and a symbol
// tacked on — so the list is built from the words and endings people actually use, plus literal
// entries. Compared ignoring case. A few thousand entries; an offline breach corpus would be the
// next step (docs/decisions/013).

const WORDS = [
  'password', 'passw0rd', 'p@ssword', 'p@ssw0rd', 'pa$$word', 'welcome', 'qwerty', 'qwertyuiop',
  'asdfgh', 'zxcvbn', 'letmein', 'admin', 'administrator', 'iloveyou', 'monkey', 'dragon',
  'football', 'baseball', 'soccer', 'hockey', 'sunshine', 'princess', 'master', 'shadow',
  'superman', 'batman', 'michael', 'charlie', 'jennifer', 'jordan', 'hunter', 'ashley', 'thomas',
  'summer', 'winter', 'spring', 'autumn', 'computer', 'secret', 'freedom', 'whatever', 'trustno1',
  'starwars', 'pokemon', 'liverpool', 'chelsea', 'arsenal', 'london', 'england', 'changeme',
  'default', 'login', 'test', 'testing', 'hello', 'access', 'flower', 'cookie', 'banana',
  'chocolate', 'abc', 'abcd', 'abcdef', 'qazwsx', 'google', 'love', 'family', 'money',
  'schemacheck', 'company', 'office', 'user', 'guest', 'root', 'temp', 'january', 'december',
];

const ENDINGS = [
  '1!', '12!', '123!', '1234!', '12345!', '123456!', '!1', '!123', '1@', '123@', '@1', '@123',
  '1#', '123#', '#1', '1$', '123$', '1?', '01!', '0!', '2020!', '2021!', '2022!', '2023!', '2024!',
  '2025!', '2026!', '@2024', '@2025', '#2024', '#2025', '1.', '123.', '1*', '123*', '!!1', '1!!',
  '69!', '99!', '007!', '1234$', '1234@', '_1', '_123', '-1', '-123',
];

const LITERALS = [
  'Password1!', 'Password123!', 'Passw0rd!', 'P@ssw0rd', 'P@ssw0rd1', 'P@ssw0rd!', 'P@55w0rd',
  'P@55w0rd!', 'P@$$w0rd', 'P@$$w0rd1', 'Pa$$w0rd', 'Pa$$w0rd1', 'Pa$$word1', 'Welcome1!',
  'Welcome@123', 'Welcome123!', 'Qwerty123!', 'Qwerty1!', 'Qwerty!1', 'Admin@123', 'Admin123!',
  'Abcd1234!', 'Abcd@1234', 'Abc123!@#', 'Abc@1234', 'Aa123456!', 'Aa@123456', 'Aa12345678!',
  'Test@123', 'Test1234!', 'Test123!', 'Changeme1!', 'Letmein1!', 'Iloveyou1!', 'Zaq12wsx!',
  '!QAZ2wsx', '1qaz@WSX', '1qaz!QAZ', 'Zaq1@wsx', '1Qaz2wsx!', 'Qwer1234!', 'Asdf1234!',
  'Pass@123', 'Pass@1234', 'Pass1234!', 'Passw0rd1!', 'Password@1', 'Password@123', 'Password#1',
  'Password1234!', 'Password12!', 'Password01!', 'Summer2024!', 'Winter2024!', 'Spring2025!',
  'Autumn2024!', 'Qwertyuiop1!', 'Trustno1!', 'Monkey123!', 'Dragon123!', 'Football1!',
  'Starwars1!', 'Superman1!', 'Batman123!', 'Michael1!', 'Sunshine1!', 'Princess1!',
];

const LIST: ReadonlySet<string> = new Set(
  [
    ...LITERALS,
    ...WORDS.flatMap((w) => ENDINGS.map((e) => w + e)),
  ].map((p) => p.toLowerCase()),
);

export function isCommonPassword(password: string): boolean {
  return LIST.has(password.normalize('NFC').toLowerCase());
}

export const COMMON_PASSWORD_COUNT = LIST.size;
