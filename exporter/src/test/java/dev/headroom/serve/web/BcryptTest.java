package dev.headroom.serve.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BcryptTest {

  /**
   * Published vectors (OpenBSD / John the Ripper), htpasswd -nbB ($2y$) and Python bcrypt ($2a$, $2b$),
   * generated once and pasted: the test needs neither tool.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "U*U|$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "''|$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s.",
        "secret|$2y$04$..rQpyWFaYj7eJyNmTpEBefxDd76yj8a4nC9qkuVsDWjCE7th8Rr.",
        "correct horse battery staple|$2y$04$pyqXX2PEz5q3akQxcnZHhO8tfL4ndXNX1fDm/1nyoKmVYruxx4bA2",
        "''|$2y$04$ThjgqcZG4EatUB3i5c/xcOG1lc94d4mS9lJ7gV.foD0ykWntinMUa",
        "scrape-me|$2y$10$9eIWiAeiLv2WJaMXIgx0KuzRvbe5oyuHKhwJw1wuiNyt7M8AqvRDe",
        "''|$2b$05$mIZMjab4ok1u7XWDsrQw/O1BI/sa2Xf7yPV5yngSNp9QIZeWxu9KK",
        "U*U|$2a$05$yC5T39TH1Ofw7iVI6JYGleLuSofUP.OQCCwtNJx6JIHz4YOCmaZOy",
        "été|$2b$05$9m7v2gSYVd5F6GxSmy3gWOHAWQv5lEH60Ako2ie6QCIy2L.41mqk6",
        "01234567890123456789012345678901234567890123456789012345678901234567890123456789|$2y$05$sRLWrH81v9krLvgULzuUc.t8M1GOHs8CmOb51s9WVHHhKRKQLIlLi",
      })
  void knownHashesVerify(String password, String hash) {
    assertTrue(verify(password, Bcrypt.parse(hash)), hash);
    assertFalse(verify("x" + password, Bcrypt.parse(hash)), "a different password must fail");
  }

  @Test
  void passwordsAreCutAt72Bytes() {
    String a72 = "a".repeat(72);
    Bcrypt.Hash h72 = Bcrypt.parse("$2b$05$8wkhCiIsY0dbxrre2uii4uC1kPN96qd/n.OYt4qWlF.BRPcvcNMF.");
    assertTrue(verify(a72, h72));
    assertTrue(verify(a72 + "b", h72), "byte 73 is ignored, as in every bcrypt");
    assertFalse(verify("a".repeat(71), h72));
    // Python bcrypt 3.2 hashed a*72+"b"; it must equal the 72-byte hash's behaviour.
    assertTrue(verify(a72, Bcrypt.parse("$2b$05$00Is4r0ArfrxR0HtPnWF/O6CBlqh0slXg2PX8OLuyZgLFxdEJaCNi")));
  }

  @Test
  void parseReadsCostAndSalt() {
    Bcrypt.Hash h = Bcrypt.parse("$2y$10$9eIWiAeiLv2WJaMXIgx0KuzRvbe5oyuHKhwJw1wuiNyt7M8AqvRDe");
    assertEquals(10, h.cost());
    assertEquals(16, h.salt().length);
    assertEquals(23, h.digest().length);
    // The parsed parts are the ones bcrypt hashes with: the password verifies, and only with them.
    assertTrue(verify("scrape-me", h));
    byte[] otherSalt = h.salt().clone();
    otherSalt[0] ^= 1;
    assertFalse(verify("scrape-me", new Bcrypt.Hash(h.cost(), otherSalt, h.digest())));
    assertFalse(verify("scrape-me", new Bcrypt.Hash(h.cost() + 1, h.salt(), h.digest())));
  }

  private static boolean verify(String password, Bcrypt.Hash hash) {
    return Bcrypt.verify(password.getBytes(UTF_8), hash);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''|empty bcrypt hash",
        "secret|not a bcrypt hash",
        "$1$abc$def|not a bcrypt hash",
        "{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=|not a bcrypt hash",
        "$2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW|$2x$",
        "$2y$10$9eIWiAeiLv2WJaMXIgx0KuzRvbe5oyuHKhwJw1wuiNyt7M8AqvRD|53 characters",
        "$2y$10$9eIWiAeiLv2WJaMXIgx0KuzRvbe5oyuHKhwJw1wuiNyt7M8AqvRD!|53 characters",
        "$2y$03$9eIWiAeiLv2WJaMXIgx0KuzRvbe5oyuHKhwJw1wuiNyt7M8AqvRDe|cost 3 outside",
        "$2y$32$9eIWiAeiLv2WJaMXIgx0KuzRvbe5oyuHKhwJw1wuiNyt7M8AqvRDe|cost 32 outside",
      })
  void badHashesAreRejectedWithAReason(String hash, String reason) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bcrypt.parse(hash));
    assertTrue(e.getMessage().contains(reason), e.getMessage());
  }
}
