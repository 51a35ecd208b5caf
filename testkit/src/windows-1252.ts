/** The characters Windows-1252 puts at 0x80..0x9F (where Latin-1 has control characters), by byte. */
const HIGH: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/**
 * `text` encoded as Windows-1252, as Excel in Spanish saves «CSV (delimitado por comas)»:
 * Latin-1 plus the typographic characters of 0x80..0x9F that Word and Excel put in names (’ “ ” – —).
 * Written here rather than through the product's decoder, so a test never checks the code with itself.
 * @throws Error for a character Windows-1252 does not have.
 */
export function windows1252(text: string): Buffer {
  return Buffer.from(
    Array.from(text, (char) => {
      const code = HIGH[char] ?? char.charCodeAt(0);
      if (code > 0xff || (code >= 0x80 && code <= 0x9f && HIGH[char] === undefined))
        throw new Error(`«${char}» no existe en Windows-1252`);
      return code;
    }),
  );
}
