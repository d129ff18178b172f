package dev.headroom.serve.web;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Verifies bcrypt password hashes ({@code $2a$}, {@code $2b$}, {@code $2y$}) as written by
 * {@code htpasswd -B}, Python's bcrypt and Go's x/crypto/bcrypt, the format of the exporter-toolkit's
 * {@code basic_auth_users}. Verification only: headroom never stores passwords.
 *
 * <p>Usage: {@code Bcrypt.verify("secret".getBytes(UTF_8), Bcrypt.parse(hash))}.
 *
 * <p>Blowfish's initial P-array and S-boxes are the first 8,336 hexadecimal digits of pi's fraction; they
 * are computed once (Machin's formula, a few milliseconds) rather than pasted as a 1,042-word table.
 */
public final class Bcrypt {
  /** A parsed hash: variant letter, cost (log2 rounds), 16-byte salt and the 23-byte digest. */
  public record Hash(char variant, int cost, byte[] salt, byte[] digest) {}

  private static final Pattern FORMAT =
      Pattern.compile("\\$2([aby])\\$(\\d\\d)\\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})");
  private static final String ALPHABET =
      "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final int MAX_KEY_BYTES = 72;
  private static final int[] PI_WORDS = piFractionWords(18 + 4 * 256);
  /** "OrpheanBeholderScryDoubt", the plaintext bcrypt encrypts 64 times. */
  private static final int[] MAGIC = {
    0x4f727068, 0x65616e42, 0x65686f6c, 0x64657253, 0x63727944, 0x6f756274
  };

  private final int[] p = Arrays.copyOfRange(PI_WORDS, 0, 18);
  private final int[] s = Arrays.copyOfRange(PI_WORDS, 18, PI_WORDS.length);

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
    byte[] salt = decode(m.group(3), 16);
    byte[] digest = decode(m.group(4), 23);
    return new Hash(m.group(1).charAt(0), cost, salt, digest);
  }

  /** True when {@code password} (UTF-8 bytes) hashes to {@code hash}; the final compare is constant-time. */
  public static boolean verify(byte[] password, Hash hash) {
    return MessageDigest.isEqual(digest(password, hash.salt(), hash.cost()), hash.digest());
  }

  /** The 23-byte bcrypt digest of a password; package-private for tests. */
  static byte[] digest(byte[] password, byte[] salt, int cost) {
    // The key is the NUL-terminated password, cut at 72 bytes (the $2b$ rule; identical for $2a$/$2y$
    // below 255 bytes, and longer passwords are cut anyway).
    byte[] key = Arrays.copyOf(password, Math.min(password.length + 1, MAX_KEY_BYTES));
    Bcrypt b = new Bcrypt();
    b.expensiveKey(key, salt);
    long rounds = 1L << cost;
    for (long i = 0; i < rounds; i++) {
      b.key(key);
      b.key(salt);
    }
    int[] data = MAGIC.clone();
    for (int i = 0; i < 64; i++) {
      for (int j = 0; j < 3; j++) {
        b.encipher(data, j << 1);
      }
    }
    byte[] out = new byte[24];
    for (int i = 0; i < 6; i++) {
      out[4 * i] = (byte) (data[i] >>> 24);
      out[4 * i + 1] = (byte) (data[i] >>> 16);
      out[4 * i + 2] = (byte) (data[i] >>> 8);
      out[4 * i + 3] = (byte) data[i];
    }
    Arrays.fill(key, (byte) 0);
    return Arrays.copyOf(out, 23);
  }

  private void encipher(int[] lr, int off) {
    int l = lr[off] ^ p[0];
    int r = lr[off + 1];
    for (int i = 1; i <= 16; i += 2) {
      r ^= f(l) ^ p[i];
      l ^= f(r) ^ p[i + 1];
    }
    lr[off] = r ^ p[17];
    lr[off + 1] = l;
  }

  private int f(int x) {
    return ((s[x >>> 24] + s[0x100 | ((x >>> 16) & 0xff)]) ^ s[0x200 | ((x >>> 8) & 0xff)])
        + s[0x300 | (x & 0xff)];
  }

  /** Reads the next 32-bit word from {@code data}, cycling; {@code pos[0]} is the cursor. */
  private static int word(byte[] data, int[] pos) {
    int w = 0;
    for (int i = 0; i < 4; i++) {
      w = (w << 8) | (data[pos[0]] & 0xff);
      pos[0] = (pos[0] + 1) % data.length;
    }
    return w;
  }

  private void key(byte[] key) {
    int[] pos = {0};
    for (int i = 0; i < p.length; i++) {
      p[i] ^= word(key, pos);
    }
    int[] lr = {0, 0};
    for (int i = 0; i < p.length; i += 2) {
      encipher(lr, 0);
      p[i] = lr[0];
      p[i + 1] = lr[1];
    }
    for (int i = 0; i < s.length; i += 2) {
      encipher(lr, 0);
      s[i] = lr[0];
      s[i + 1] = lr[1];
    }
  }

  private void expensiveKey(byte[] key, byte[] salt) {
    int[] kpos = {0};
    int[] spos = {0};
    for (int i = 0; i < p.length; i++) {
      p[i] ^= word(key, kpos);
    }
    int[] lr = {0, 0};
    for (int i = 0; i < p.length; i += 2) {
      lr[0] ^= word(salt, spos);
      lr[1] ^= word(salt, spos);
      encipher(lr, 0);
      p[i] = lr[0];
      p[i + 1] = lr[1];
    }
    for (int i = 0; i < s.length; i += 2) {
      lr[0] ^= word(salt, spos);
      lr[1] ^= word(salt, spos);
      encipher(lr, 0);
      s[i] = lr[0];
      s[i + 1] = lr[1];
    }
  }

  /** bcrypt's base64: its own alphabet, no padding. */
  static byte[] decode(String text, int bytes) {
    byte[] out = new byte[bytes];
    int bits = 0;
    int acc = 0;
    int n = 0;
    for (int i = 0; i < text.length() && n < bytes; i++) {
      acc = (acc << 6) | ALPHABET.indexOf(text.charAt(i));
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[n++] = (byte) (acc >>> bits);
      }
    }
    return out;
  }

  /** The first {@code count} 32-bit words of pi's fractional part (pi = 3.243F6A88...). Package-private for tests. */
  static int[] piFractionWords(int count) {
    int guard = 64;
    int bits = 32 * count + guard;
    // pi = 16 atan(1/5) - 4 atan(1/239), in fixed point with `bits` fraction bits.
    BigInteger pi =
        arctanInverse(5, bits).shiftLeft(4).subtract(arctanInverse(239, bits).shiftLeft(2));
    BigInteger fraction = pi.subtract(BigInteger.valueOf(3).shiftLeft(bits)).shiftRight(guard);
    int[] words = new int[count];
    for (int i = 0; i < count; i++) {
      words[i] = fraction.shiftRight(32 * (count - 1 - i)).intValue();
    }
    return words;
  }

  /** atan(1/x) * 2^bits by its Taylor series; each term's truncation costs at most one unit. */
  private static BigInteger arctanInverse(int x, int bits) {
    BigInteger xx = BigInteger.valueOf((long) x * x);
    BigInteger power = BigInteger.ONE.shiftLeft(bits).divide(BigInteger.valueOf(x));
    BigInteger sum = power;
    for (int k = 1; power.signum() != 0; k++) {
      power = power.divide(xx);
      BigInteger term = power.divide(BigInteger.valueOf(2L * k + 1));
      sum = (k & 1) == 1 ? sum.subtract(term) : sum.add(term);
    }
    return sum;
  }

  /** Convenience for callers holding a String password. */
  public static boolean verify(String password, Hash hash) {
    return verify(password.getBytes(StandardCharsets.UTF_8), hash);
  }
}
