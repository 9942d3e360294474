import { expect } from "chai";
import { getAddress, hexlify, randomBytes } from "ethers";

import { eip55, matchesEip55 } from "../../tasks/scores/checksum.js";

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
});
