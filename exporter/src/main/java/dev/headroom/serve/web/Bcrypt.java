package dev.headroom.serve.web;

import at.favre.lib.crypto.bcrypt.BCrypt;
import at.favre.lib.crypto.bcrypt.IllegalBCryptFormatException;
import at.favre.lib.crypto.bcrypt.LongPasswordStrategies;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Verifies bcrypt password hashes ({@code $2a$}, {@code $2b$}, {@code $2y$}) as written by
 * {@code htpasswd -B}, Python's bcrypt and Go's x/crypto/bcrypt, the format of the exporter-toolkit's
 * {@code basic_auth_users}. Verification only: headroom never stores passwords.
 *
 * <p>Usage: {@code Bcrypt.verify("secret".getBytes(UTF_8), Bcrypt.parse(hash))}.
 *
 * <p>The cipher is {@code at.favre.lib:bcrypt}; this class keeps the checks that give an operator a reason
 * (prefix, cost, length, alphabet) before the library sees the hash.
 */
public final class Bcrypt {
  /** A parsed hash: cost (log2 rounds), 16-byte salt and the 23-byte digest. */
  public record Hash(int cost, byte[] salt, byte[] digest) {}

  private static final Pattern FORMAT =
      Pattern.compile("\\$2([aby])\\$(\\d\\d)\\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})");
  /**
   * $2a$, $2b$ and $2y$ hash identically for passwords under 255 bytes; every variant cuts the key at 72
   * bytes (71 and the NUL terminator), which is what the library's truncate strategy does.
   */
  private static final BCrypt.Version VERSION = BCrypt.Version.VERSION_2B;
  private static final BCrypt.Verifyer VERIFYER =
      BCrypt.verifyer(VERSION, LongPasswordStrategies.truncate(VERSION));

  private Bcrypt() {}

  /**
   * Parses a modular-crypt bcrypt hash.
   *
   * @throws IllegalArgumentException naming what is wrong (prefix, cost, length, alphabet)
   */
  public static Hash parse(String hash) {
    if (hash == null || hash.isEmpty()) {
      throw new IllegalArgumentException("empty bcrypt hash");
    }
    Matcher m = FORMAT.matcher(hash);
    if (!m.matches()) {
      if (!hash.startsWith("$2")) {
        throw new IllegalArgumentException(
            "not a bcrypt hash (expected $2a$, $2b$ or $2y$, e.g. from htpasswd -nBC 10 USER)");
      }
      if (hash.startsWith("$2x$")) {
        throw new IllegalArgumentException("$2x$ hashes (the pre-2011 crypt_blowfish bug) are not supported");
      }
      throw new IllegalArgumentException(
          "malformed bcrypt hash: expected $2b$NN$ followed by 53 characters of [./A-Za-z0-9], got "
              + hash.length() + " characters");
    }
    int cost = Integer.parseInt(m.group(2));
    if (cost < 4 || cost > 31) {
      throw new IllegalArgumentException("bcrypt cost " + cost + " outside 04..31");
    }
    BCrypt.HashData data;
    try {
      data = VERSION.parser.parse(hash.getBytes(StandardCharsets.US_ASCII));
    } catch (IllegalBCryptFormatException e) {
      throw new IllegalArgumentException("malformed bcrypt hash: " + e.getMessage(), e);
    }
    return new Hash(data.cost, data.rawSalt, data.rawHash);
  }

  /** True when {@code password} (UTF-8 bytes) hashes to {@code hash}; the library's compare is constant-time. */
  public static boolean verify(byte[] password, Hash hash) {
    return VERIFYER.verify(password, hash.cost(), hash.salt(), hash.digest()).verified;
  }
}
