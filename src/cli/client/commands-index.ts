/** The first words of client commands: main.ts decides by these alone, before loading either side. */
const CLIENT_WORDS = new Set(['login', 'logout', 'whoami', 'projects', 'demos', 'upload', 'keys', 'credits', 'usage']);

export const isClientCommand = (word: string | undefined): boolean => word !== undefined && CLIENT_WORDS.has(word);
