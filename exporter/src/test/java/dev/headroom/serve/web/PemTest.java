package dev.headroom.serve.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys and chains as openssl writes them, read back through {@link Pem}. */
class PemTest {
  @TempDir static Path dir;
  static TestPki pki;

  @BeforeAll
  static void pki() throws Exception {
    pki = new TestPki(dir);
  }

  @Test
  void aChainFileKeepsItsOrderLeafFirst() throws Exception {
    Path chain = dir.resolve("chain.crt");
    Files.writeString(chain, Files.readString(pki.file("server.crt")) + Files.readString(pki.file("ca.crt")));
    List<X509Certificate> certs = Pem.certificates(chain);
    assertEquals(2, certs.size());
    assertEquals("CN=headroom test server", certs.get(0).getSubjectX500Principal().getName());
    assertEquals("CN=headroom test ca", certs.get(1).getSubjectX500Principal().getName());
    Pem.checkPair(Pem.privateKey(pki.file("server.key")), certs.get(0));
  }

  @Test
  void pkcs8Pkcs1AndSec1KeysAreTheSameKindOfKey() throws Exception {
    PrivateKey pkcs8 = Pem.privateKey(pki.file("server.key"));
    PrivateKey pkcs1 = Pem.privateKey(pki.file("server-pkcs1.key"));
    assertEquals("RSA", pkcs8.getAlgorithm());
    assertEquals(pkcs8, pkcs1, "the same RSA key in two encodings");
    assertEquals("EC", Pem.privateKey(pki.file("server-ec.key")).getAlgorithm());
  }

  @Test
  void ed25519KeysMatchTheirCertificate() throws Exception {
    pki.openssl("genpkey", "-algorithm", "ed25519", "-out", "ed.key");
    pki.openssl("req", "-x509", "-new", "-key", "ed.key", "-subj", "/CN=ed", "-days", "1", "-out", "ed.crt");
    Pem.checkPair(Pem.privateKey(pki.file("ed.key")), Pem.certificates(pki.file("ed.crt")).get(0));
  }

  @Test
  void ecKeysOnOtherCurvesAndWithoutAParametersBlockMatchTheirCertificate() throws Exception {
    // SEC1 without the EC PARAMETERS block openssl ecparam writes by default, and PKCS#8 on P-384 and P-521:
    // the curve comes from the key's own parameters, which the shaded jar's cut-down BouncyCastle must still parse.
    pki.openssl("ecparam", "-name", "secp384r1", "-genkey", "-noout", "-out", "p384-sec1.key");
    pki.openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-521", "-out", "p521.key");
    for (String name : List.of("p384-sec1", "p521")) {
      pki.openssl("req", "-x509", "-new", "-key", name + ".key", "-subj", "/CN=" + name, "-days", "1", "-out", name + ".crt");
      PrivateKey key = Pem.privateKey(pki.file(name + ".key"));
      assertEquals("EC", key.getAlgorithm(), name);
      Pem.checkPair(key, Pem.certificates(pki.file(name + ".crt")).get(0));
    }
  }

  @Test
  void encryptedKeysInEitherFormAreRefusedWithAReason() throws Exception {
    pki.openssl("pkcs8", "-topk8", "-in", "server.key", "-passout", "pass:secret", "-out", "enc-pkcs8.key");
    pki.openssl("rsa", "-in", "server.key", "-traditional", "-aes256", "-passout", "pass:secret", "-out", "enc-pkcs1.key");
    assertTrue(Files.readString(pki.file("enc-pkcs1.key")).contains("Proc-Type: 4,ENCRYPTED"), "legacy form really tested");
    for (String f : List.of("enc-pkcs8.key", "enc-pkcs1.key")) {
      IOException e = assertThrows(IOException.class, () -> Pem.privateKey(pki.file(f)));
      assertTrue(e.getMessage().contains("the private key is encrypted"), f + ": " + e.getMessage());
    }
  }

  @Test
  void corruptBlocksAndWrongContentsAreNamed() throws Exception {
    Path bad = dir.resolve("bad.crt");
    Files.writeString(bad, "-----BEGIN CERTIFICATE-----\nnot!base64\n-----END CERTIFICATE-----\n");
    IOException e = assertThrows(IOException.class, () -> Pem.certificates(bad));
    assertTrue(e.getMessage().contains("corrupt PEM block"), e.getMessage());
    e = assertThrows(IOException.class, () -> Pem.certificates(pki.file("server.key")));
    assertTrue(e.getMessage().contains("no PEM CERTIFICATE block (found [PRIVATE KEY])"), e.getMessage());
  }
}
