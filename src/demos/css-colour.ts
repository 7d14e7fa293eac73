/**
 * What a presentation accepts as a colour (`background`, a gradient's `from` and `to`, `cursor.color`,
 * `clickEffect.color`): the colours CSS itself accepts, so that what a user typed is what the video shows.
 * A name of CSS Color 4, `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, or a colour function of numbers.
 */
const NAMED = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood ' +
    'cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray ' +
    'darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen ' +
    'darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue ' +
    'firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew ' +
    'hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan ' +
    'lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue ' +
    'mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred ' +
    'midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid ' +
    'palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple ' +
    'rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue ' +
    'slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white ' +
    'whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const COMPONENT = String.raw`(?:none|[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?(?:%|deg|grad|rad|turn)?)`;
/** rgb(), hsl() and the others: three components (commas or spaces), and an alpha after a comma or a slash. */
const FUNCTION = new RegExp(
  String.raw`^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(\s*${COMPONENT}(?:\s*,\s*|\s+)${COMPONENT}(?:\s*,\s*|\s+)${COMPONENT}(?:\s*[,/]\s*${COMPONENT})?\s*\)$`,
  'i',
);

export function isCssColour(value: string): boolean {
  const v = value.trim();
  return HEX.test(v) || NAMED.has(v.toLowerCase()) || FUNCTION.test(v);
}

export const CSS_COLOUR_HINT = 'a CSS colour: a name such as "navy", #hex such as "#4f46e5", or a function such as "rgb(79 70 229)"';
