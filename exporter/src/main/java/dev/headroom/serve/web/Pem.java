package dev.headroom.serve.web;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM files the exporter-toolkit web config points at: certificate chains and unencrypted
 * private keys, RSA or EC (PKCS#8 {@code PRIVATE KEY}, PKCS#1 {@code RSA PRIVATE KEY}, SEC1
 * {@code EC PRIVATE KEY}) or Ed25519, as {@code openssl} and Go's {@code tls.X509KeyPair} write them.
 *
 * <p>Usage: {@code PrivateKey key = Pem.privateKey(Path.of("/etc/headroom/tls.key"));}
 *
 * <p>Errors are {@link IOException}s whose message says what was found instead.
 */
public final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile(
          "-----BEGIN ([A-Z0-9 ]+)-----\\s*?\\n(.*?)-----END \\1-----", Pattern.DOTALL);
  /** rsaEncryption 1.2.840.113549.1.1.1 with its NULL parameters, as DER. */
  private static final byte[] RSA_ALGORITHM = {
    0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00
  };
  /** id-ecPublicKey 1.2.840.10045.2.1, as a DER OID. */
  private static final byte[] EC_PUBLIC_KEY_OID = {
    0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01
  };

  private Pem() {}

  private record Block(String type, String headers, byte[] der) {}

  /** All certificates in the file, leaf first as in the file. */
  public static List<X509Certificate> certificates(Path file) throws IOException {
    List<Block> blocks = blocks(file);
    List<X509Certificate> certs = new ArrayList<>();
    try {
      CertificateFactory cf = CertificateFactory.getInstance("X.509");
      for (Block b : blocks) {
        if (b.type().equals("CERTIFICATE")) {
          certs.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(b.der())));
        }
      }
    } catch (CertificateException e) {
      throw new IOException("not a valid X.509 certificate: " + e.getMessage(), e);
    }
    if (certs.isEmpty()) {
      throw new IOException("no PEM CERTIFICATE block (found " + types(blocks) + ")");
    }
    return certs;
  }

  /** The one private key in the file. */
  public static PrivateKey privateKey(Path file) throws IOException {
    List<Block> blocks = blocks(file);
    for (Block b : blocks) {
      if (b.type().equals("ENCRYPTED PRIVATE KEY") || b.headers().contains("ENCRYPTED")) {
        throw new IOException("the private key is encrypted; headroom needs an unencrypted key "
            + "(readable only by the service user)");
      }
      switch (b.type()) {
        case "PRIVATE KEY":
          return pkcs8(b.der());
        case "RSA PRIVATE KEY":
          return pkcs8(Der.sequence(Der.integerZero(), RSA_ALGORITHM, Der.tlv(0x04, b.der())));
        case "EC PRIVATE KEY":
          byte[] curve = Der.sec1Curve(b.der());
          byte[] algorithm = Der.tlv(0x30, Der.concat(EC_PUBLIC_KEY_OID, curve));
          return pkcs8(Der.sequence(Der.integerZero(), algorithm, Der.tlv(0x04, b.der())));
        default:
          // EC PARAMETERS (openssl ecparam -genkey) and certificates may share the file.
      }
    }
    throw new IOException("no PEM private key block (found " + types(blocks) + ")");
  }

  /** Throws unless {@code key} is the private half of {@code cert}'s public key. */
  public static void checkPair(PrivateKey key, X509Certificate cert) throws IOException {
    PublicKey pub = cert.getPublicKey();
    if (!pub.getAlgorithm().equals(key.getAlgorithm())) {
      throw new IOException("the key is " + key.getAlgorithm() + " but the certificate's is " + pub.getAlgorithm());
    }
    String alg =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm();
        };
    try {
      byte[] probe = new byte[32];
      new SecureRandom().nextBytes(probe);
      Signature signer = Signature.getInstance(alg);
      signer.initSign(key);
      signer.update(probe);
      byte[] sig = signer.sign();
      Signature verifier = Signature.getInstance(alg);
      verifier.initVerify(pub);
      verifier.update(probe);
      if (!verifier.verify(sig)) {
        throw new IOException("the key does not match the certificate's public key");
      }
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot check the key against the certificate: " + e.getMessage(), e);
    }
  }

  private static PrivateKey pkcs8(byte[] der) throws IOException {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String alg : List.of("RSA", "EC", "Ed25519", "RSASSA-PSS")) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(spec);
      } catch (GeneralSecurityException | RuntimeException e) {
        // try the next algorithm
      }
    }
    throw new IOException("unsupported or corrupt private key (supported: RSA, EC, Ed25519)");
  }

  private static List<Block> blocks(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.US_ASCII).replace("\r\n", "\n");
    List<Block> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      String body = m.group(2);
      String headers = "";
      int blank = body.indexOf("\n\n");
      if (body.contains(":") && blank >= 0) {
        headers = body.substring(0, blank);
        body = body.substring(blank + 2);
      }
      try {
        blocks.add(new Block(m.group(1), headers, Base64.getMimeDecoder().decode(body)));
      } catch (IllegalArgumentException e) {
        throw new IOException("corrupt base64 in PEM " + m.group(1) + " block", e);
      }
    }
    if (blocks.isEmpty()) {
      throw new IOException("not a PEM file (no -----BEGIN ...----- block)");
    }
    return blocks;
  }

  private static String types(List<Block> blocks) {
    return blocks.stream().map(Block::type).distinct().toList().toString();
  }

  /** Just enough DER to re-wrap PKCS#1 and SEC1 keys as PKCS#8. */
  static final class Der {
    private Der() {}

    static byte[] integerZero() {
      return new byte[] {0x02, 0x01, 0x00};
    }

    static byte[] sequence(byte[]... parts) {
      return tlv(0x30, concat(parts));
    }

    static byte[] concat(byte[]... parts) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (byte[] p : parts) {
        out.writeBytes(p);
      }
      return out.toByteArray();
    }

    static byte[] tlv(int tag, byte[] value) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(tag);
      int n = value.length;
      if (n < 0x80) {
        out.write(n);
      } else {
        int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
        out.write(0x80 | bytes);
        for (int i = bytes - 1; i >= 0; i--) {
          out.write(n >>> (8 * i));
        }
      }
      out.writeBytes(value);
      return out.toByteArray();
    }

    /** The named-curve OID (full TLV) from a SEC1 ECPrivateKey's [0] parameters. */
    static byte[] sec1Curve(byte[] der) throws IOException {
      int[] pos = {0};
      int[] outer = header(der, pos);
      if (outer[0] != 0x30) {
        throw new IOException("EC PRIVATE KEY is not a DER SEQUENCE");
      }
      int end = pos[0] + outer[1];
      while (pos[0] < end) {
        int[] h = header(der, pos);
        if (h[0] == 0xa0) {
          int start = pos[0];
          int[] oid = header(der, pos);
          if (oid[0] != 0x06) {
            throw new IOException("EC PRIVATE KEY has explicit curve parameters; use a named curve");
          }
          return java.util.Arrays.copyOfRange(der, start, pos[0] + oid[1]);
        }
        pos[0] += h[1];
      }
      throw new IOException("EC PRIVATE KEY names no curve; convert it with openssl pkcs8 -topk8 -nocrypt");
    }

    /** Reads a tag and length at pos[0], leaving pos[0] at the value. Returns {tag, length}. */
    private static int[] header(byte[] der, int[] pos) throws IOException {
      if (pos[0] + 2 > der.length) {
        throw new IOException("truncated DER");
      }
      int tag = der[pos[0]++] & 0xff;
      int len = der[pos[0]++] & 0xff;
      if (len >= 0x80) {
        int bytes = len & 0x7f;
        if (bytes > 3 || pos[0] + bytes > der.length) {
          throw new IOException("bad DER length");
        }
        len = 0;
        for (int i = 0; i < bytes; i++) {
          len = (len << 8) | (der[pos[0]++] & 0xff);
        }
      }
      if (pos[0] + len > der.length) {
        throw new IOException("truncated DER");
      }
      return new int[] {tag, len};
    }
  }
}
