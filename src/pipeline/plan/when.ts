/**
 * Issue 56: a time and a date a prompt names for a form ("at 09:30 on 14 December", "due 18:00 on 3 March", "for a
 * quarter to six in the evening on 30 June 2027", "Friday 7pm" is not read: a weekday names no date). A booking form,
 * a reminder app, a to-do with a deadline: their hour, minute, day, month and year fields (or a date or time input)
 * take what was said. Only what the words say: no year is made up when none is named, so the form keeps its own.
 */
export interface When {
  hours?: number;
  minutes?: number;
  day?: number;
  /** 1–12 */
  month?: number;
  year?: number;
}

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const YEAR = String.raw`(?:,?\s+(\d{4}))?`;
/** "14 December", "3rd of March 2027" */
const DAY_MONTH = new RegExp(String.raw`\b${DAY}\s+(?:of\s+)?${MONTH}\b${YEAR}`, 'i');
/** "December 14", "March 3rd, 2027" */
const MONTH_DAY = new RegExp(String.raw`\b${MONTH}\s+${DAY}\b${YEAR}`, 'i');
/** "2027-06-30" */
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/;

/** "09:30", "18.00", "7:15 pm" */
const CLOCK = /\b([01]?\d|2[0-3])[:.]([0-5]\d)(?:\s*([ap])\.?m\.?\b)?/i;
/** "7pm", "11 a.m." */
const HOUR_AMPM = /\b(1[0-2]|0?[1-9])\s*([ap])\.?m\b\.?/i;
/** "half past seven", "a quarter to six", "ten past nine", "six o'clock" */
const SPOKEN = /\b(?:(?:a\s+)?(quarter|half|five|ten|twenty|twenty-five)\s+(past|to)\s+)?(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:\s+o['’]clock)?\b(?=[^.;]{0,30}?\b(?:in the (?:morning|afternoon|evening)|at night|tonight|am\b|pm\b))|\b(?:a\s+)?(quarter|half|five|ten|twenty|twenty-five)\s+(past|to)\s+(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+o['’]clock\b/i;
const NOON = /\b(noon|midday|midnight)\b/i;
const AFTERNOON = /\b(?:in the (?:afternoon|evening)|at night|tonight|p\.?m\b)/i;

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
const MINUTE_WORDS: Record<string, number> = { five: 5, ten: 10, quarter: 15, twenty: 20, 'twenty-five': 25, half: 30 };

/** The time and date the text names, or null when it names neither. */
export function whenOf(text: string): When | null {
  const when: When = { ...dateOf(text), ...timeOf(text) };
  return Object.keys(when).length > 0 ? when : null;
}

/** The text without its time and date and the little words that led to them ("pay the water bill at 09:30 on 14 December" → "pay the water bill"). */
export function withoutWhen(text: string): string {
  let rest = text;
  for (const pattern of [DAY_MONTH, MONTH_DAY, ISO_DATE, CLOCK, HOUR_AMPM, SPOKEN, NOON]) rest = rest.replace(new RegExp(pattern.source, 'gi'), ' ');
  rest = rest.replace(/\b(?:in the (?:morning|afternoon|evening)|at night|tonight)\b/gi, ' ');
  // What led to a time or date and now leads to nothing: "due", "at", "on", "by", "for".
  for (let i = 0; i < 3; i++) rest = rest.replace(/\s+(?:due|at|on|by|for|from|until|before)\s*(?=$|[,;]|\s+(?:due|at|on|by|for|from|until|before)\b)/gi, ' ');
  return rest.replace(/^\s*(?:due|at|on|by|for)\s*$/i, '').replace(/\s+/g, ' ').trim();
}

function dateOf(text: string): When {
  const iso = ISO_DATE.exec(text);
  if (iso) return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const dm = DAY_MONTH.exec(text);
  const md = dm ? null : MONTH_DAY.exec(text);
  const [day, month, year] = dm ? [dm[1], dm[2], dm[3]] : md ? [md[2], md[1], md[3]] : [];
  if (!day || !month) return {};
  const d = Number(day);
  if (d < 1 || d > 31) return {};
  const m = MONTHS.findIndex((name) => name.toLowerCase().startsWith(month.toLowerCase().slice(0, 3))) + 1;
  return { day: d, month: m, ...(year ? { year: Number(year) } : {}) };
}

function timeOf(text: string): When {
  const clock = CLOCK.exec(text);
  if (clock) return { hours: withHalfOfDay(Number(clock[1]), clock[3] ?? null, text), minutes: Number(clock[2]) };
  const ampm = HOUR_AMPM.exec(text);
  if (ampm) return { hours: withHalfOfDay(Number(ampm[1]), ampm[2]!, text), minutes: 0 };
  const noon = NOON.exec(text);
  if (noon) return { hours: /midnight/i.test(noon[1]!) ? 0 : 12, minutes: 0 };
  const spoken = SPOKEN.exec(text);
  if (spoken) {
    const [part, relation, hourWord] = spoken[3] ? [spoken[1], spoken[2], spoken[3]] : spoken[6] ? [spoken[4], spoken[5], spoken[6]] : [undefined, undefined, spoken[7]];
    let hours = NUMBER_WORDS[hourWord!.toLowerCase()]!;
    let minutes = part ? MINUTE_WORDS[part.toLowerCase()]! : 0;
    if (relation?.toLowerCase() === 'to') {
      hours = hours === 1 ? 12 : hours - 1;
      minutes = 60 - minutes;
    }
    return { hours: withHalfOfDay(hours, null, text), minutes };
  }
  return {};
}

/** 12-hour words to a 24-hour clock: "pm", "in the evening" move a morning hour to the afternoon. */
function withHalfOfDay(hours: number, ampm: string | null, text: string): number {
  if (ampm) return ampm.toLowerCase() === 'p' ? (hours % 12) + 12 : hours % 12;
  if (hours <= 12 && hours !== 0 && AFTERNOON.test(text)) return hours === 12 ? 12 : hours + 12;
  return hours;
}

/** Two digits, as hour and minute boxes show them. */
export function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}
