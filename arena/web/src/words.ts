// The client's words, as GET /api/words sends them: a message is its
// template, or, when it has a count, its templates by CLDR plural
// category ("one", "few", "many", "other"…), of which the count picks one
// by the language's rules. Templates hold only {{.Field}} placeholders.
export type Words = Record<string, string | Record<string, string>>;

export type Args = Record<string, string | number>;

// say fills the message id of words, in language, with args; an unknown
// message shows its id.
export function say(words: Words, language: string, id: string, args: Args = {}): string {
  const w = words[id];
  let src = id;
  if (typeof w === "string") {
    src = w;
  } else if (w !== undefined) {
    src = w[pluralCategory(language, Number(args.Count ?? 0))] ?? w.other ?? id;
  }
  return src.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k: string) => String(args[k] ?? ""));
}

// pluralCategory is n's CLDR plural category in language; "other" where
// the browser does not know the language.
export function pluralCategory(language: string, n: number): string {
  try {
    return new Intl.PluralRules(language).select(n);
  } catch {
    return "other";
  }
}
