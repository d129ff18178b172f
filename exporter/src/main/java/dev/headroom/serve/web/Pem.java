package dev.headroom.serve.web;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads the PEM files the exporter-toolkit web config points at: certificate chains and unencrypted
 * private keys, RSA or EC (PKCS#8 {@code PRIVATE KEY}, PKCS#1 {@code RSA PRIVATE KEY}, SEC1
 * {@code EC PRIVATE KEY}) or Ed25519, as {@code openssl} and Go's {@code tls.X509KeyPair} write them.
 *
 * <p>Usage: {@code PrivateKey key = Pem.privateKey(Path.of("/etc/headroom/tls.key"));}
 *
 * <p>Parsing is BouncyCastle's {@code PEMParser}; keys and certificates are then built by the JDK's own
 * providers (BouncyCastle is not registered as one). Its classes load only when TLS is configured.
 * Errors are {@link IOException}s whose message says what was found instead.
 */
public final class Pem {
  private Pem() {}

  /** All certificates in the file, leaf first as in the file. */
  public static List<X509Certificate> certificates(Path file) throws IOException {
    List<Object> objects = objects(file);
    List<X509Certificate> certs = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    try {
      for (Object o : objects) {
        if (o instanceof X509CertificateHolder holder) {
          certs.add(converter.getCertificate(holder));
        }
      }
    } catch (CertificateException e) {
      throw new IOException("not a valid X.509 certificate: " + e.getMessage(), e);
    }
    if (certs.isEmpty()) {
      throw new IOException("no PEM CERTIFICATE block (found " + types(objects) + ")");
    }
    return certs;
  }

  /** The one private key in the file. */
  public static PrivateKey privateKey(Path file) throws IOException {
    List<Object> objects = objects(file);
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    for (Object o : objects) {
      try {
        if (o instanceof PKCS8EncryptedPrivateKeyInfo || o instanceof PEMEncryptedKeyPair) {
          throw new IOException("the private key is encrypted; headroom needs an unencrypted key "
              + "(readable only by the service user)");
        }
        if (o instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info); // PKCS#8
        }
        if (o instanceof PEMKeyPair pair) {
          return converter.getPrivateKey(pair.getPrivateKeyInfo()); // PKCS#1 or SEC1
        }
      } catch (PEMException e) {
        throw new IOException("unsupported or corrupt private key (supported: RSA, EC, Ed25519): "
            + e.getMessage(), e);
      }
      // EC PARAMETERS (openssl ecparam -genkey) and certificates may share the file.
    }
    throw new IOException("no PEM private key block (found " + types(objects) + ")");
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

  private static List<Object> objects(Path file) throws IOException {
    List<Object> objects = new ArrayList<>();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
        PEMParser parser = new PEMParser(r)) {
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        objects.add(o);
      }
    } catch (PEMException | IllegalArgumentException | IllegalStateException e) {
      // BouncyCastle reports bad base64 and malformed DER inside a block as runtime exceptions.
      throw new IOException("corrupt PEM block: " + e.getMessage(), e);
    }
    if (objects.isEmpty()) {
      throw new IOException("not a PEM file (no -----BEGIN ...----- block)");
    }
    return objects;
  }

  /** What the file held, in PEM's words, for "found ..." messages. */
  private static String types(List<Object> objects) {
    Set<String> names = new LinkedHashSet<>();
    for (Object o : objects) {
      names.add(o instanceof X509CertificateHolder ? "CERTIFICATE"
          : o instanceof PrivateKeyInfo || o instanceof PEMKeyPair ? "PRIVATE KEY"
          : o instanceof org.bouncycastle.asn1.ASN1ObjectIdentifier ? "EC PARAMETERS"
          : o.getClass().getSimpleName());
    }
    return List.copyOf(names).toString();
  }
}
