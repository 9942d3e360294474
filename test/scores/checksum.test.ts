import { expect } from "chai";
import { getAddress, hexlify, randomBytes } from "ethers";

import { eip55, matchesEip55 } from "../../tasks/scores/checksum.js";
import { EntryCollector } from "../../tasks/scores/entry.js";

/**
 * What a score file's address column accepts, said the slow way: 0x and 40
 * hex digits, a checksum where the case is mixed (ethers' getAddress), never
 * the zero address.
 */
function acceptable(text: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return false;
  if (/^0x0{40}$/.test(text)) return false;
  const body = text.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return getAddress(text.toLowerCase()) === text;
}

describe("EIP-55 checksums (hash-wasm's keccak)", () => {
  it("spells EIP-55's own test vectors as the EIP does", () => {
    for (const address of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ])
      expect(eip55(address.slice(2).toLowerCase())).to.equal(address);
  });

  it("agrees with ethers' getAddress on a thousand random addresses", () => {
    for (let i = 0; i < 1000; i++) {
      const lower = hexlify(randomBytes(20)).slice(2);
      expect(eip55(lower)).to.equal(getAddress(`0x${lower}`));
    }
  });

  it("tells a good checksum from one letter's case flipped", () => {
    for (let i = 0; i < 200; i++) {
      const good = getAddress(hexlify(randomBytes(20))).slice(2);
      expect(matchesEip55(good)).to.equal(true);
      const letter = [...good].findIndex((c) => /[a-f]/i.test(c));
      if (letter < 0) continue;
      const c = good.charAt(letter);
      const flipped =
        good.slice(0, letter) +
        (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) +
        good.slice(letter + 1);
      expect(matchesEip55(flipped)).to.equal(false);
    }
  });

  it("accepts in a score file exactly the addresses getAddress and the format accept, one character changed at a time", () => {
    const replacements = [
      "0",
      "9",
      "a",
      "f",
      "A",
      "F",
      "g",
      "G",
      "x",
      "X",
      " ",
      "é",
      "",
      // The characters next to the hex digits' ranges.
      "/",
      ":",
      "@",
      "`",
    ];
    const tried: string[] = [];
    for (let i = 0; i < 150; i++) {
      const good = getAddress(hexlify(randomBytes(20)));
      const at = i % 42;
      const by = replacements[i % replacements.length] ?? "";
      const lower = good.toLowerCase();
      const upper = `0x${good.slice(2).toUpperCase()}`;
      const changed = (text: string) =>
        text.slice(0, at) + by + text.slice(at + 1);
      tried.push(good, lower, upper, good + by);
      tried.push(changed(good), changed(lower), changed(upper));
    }
    tried.push("0x" + "0".repeat(40), "0X" + "a".repeat(40));
    // Each text read alone: in one file, a wrong acceptance could hide as a
    // duplicate of the same address spelled right.
    const refusedAlone = tried.map((text) => {
      const collector = new EntryCollector();
      collector.add(2, text, "1");
      return collector.problemCount > 0;
    });
    const wrong = tried.filter(
      (text, i) => acceptable(text.trim()) === refusedAlone[i],
    );
    expect(wrong).to.deep.equal([]);
    expect(
      refusedAlone.filter(Boolean).length,
      "some tried addresses are refused",
    ).to.be.greaterThan(300);
  });
});
