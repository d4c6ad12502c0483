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
  return src.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k: string) => {
    const v = args[k];
    return typeof v === "number" ? formatNumber(language, v) : String(v ?? "");
  });
}

// formatNumber writes n as language writes numbers (CLDR, as the server's
// lang.Int does): 1,234 / 1.234 / 1 234; plain digits where the browser
// does not know the language.
export function formatNumber(language: string, n: number): string {
  try {
    return new Intl.NumberFormat(language, { maximumFractionDigits: 20 }).format(n);
  } catch {
    return String(n);
  }
}

// runTime writes a run's time with tenths, truncated, in language's
// decimal separator, as the server's RunTime: "0:42.3", "0:42,3".
export function runTime(language: string, ms: number): string {
  const tenths = Math.max(0, Math.floor(ms / 100));
  const s = Math.floor(tenths / 10);
  const h = Math.floor(s / 3600);
  const mss = h > 0 ? `${h}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}` : `${Math.floor(s / 60)}`;
  return `${mss}:${String(s % 60).padStart(2, "0")}${decimalSeparator(language)}${tenths % 10}`;
}

function decimalSeparator(language: string): string {
  try {
    return new Intl.NumberFormat(language).formatToParts(0.5).find((p) => p.type === "decimal")?.value ?? ".";
  } catch {
    return ".";
  }
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
