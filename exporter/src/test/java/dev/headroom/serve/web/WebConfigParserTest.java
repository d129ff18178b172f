package dev.headroom.serve.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.serve.web.WebConfig.ClientAuth;
import dev.headroom.serve.web.WebConfig.TlsVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebConfigParserTest {
  static final String HASH = "$2y$04$..rQpyWFaYj7eJyNmTpEBefxDd76yj8a4nC9qkuVsDWjCE7th8Rr.";

  @TempDir static Path pkiDir;
  static TestPki pki;

  @BeforeAll
  static void pki() throws Exception {
    pki = new TestPki(pkiDir);
  }

  private static Path write(String yaml) throws Exception {
    Path f = pkiDir.resolve("web-" + System.nanoTime() + ".yml");
    Files.writeString(f, yaml);
    return f;
  }

  private static String error(String yaml) throws Exception {
    Path f = write(yaml);
    WebConfigException e = assertThrows(WebConfigException.class, () -> WebConfigParser.parse(f));
    assertTrue(e.getMessage().startsWith(f.toString() + ": "), "names the file: " + e.getMessage());
    return e.getMessage();
  }

  @Test
  void fullConfigParsesWithPathsRelativeToTheFile() throws Exception {
    WebConfig web =
        WebConfigParser.parse(
            write(
                """
                tls_server_config:
                  cert_file: server.crt
                  key_file: ./server.key
                  min_version: TLS13
                  client_auth_type: RequireAndVerifyClientCert
                  client_ca_file: ca.crt
                basic_auth_users:
                  prometheus: %s
                  "alice": %s
                """
                    .formatted(HASH, HASH)));
    var tls = web.tls().orElseThrow();
    assertEquals(pkiDir.resolve("server.crt"), tls.certFile());
    assertEquals(pkiDir.resolve("server.key"), tls.keyFile());
    assertEquals(Optional.of(pkiDir.resolve("ca.crt")), tls.clientCaFile());
    assertEquals(ClientAuth.RequireAndVerifyClientCert, tls.clientAuth());
    assertEquals(TlsVersion.TLS13, tls.minVersion());
    assertEquals(Optional.empty(), tls.maxVersion());
    assertEquals(2, web.basicAuthUsers().size());
    assertEquals(HASH, web.basicAuthUsers().get("prometheus"));
    assertTrue(web.basicAuth());
  }

  @Test
  void absolutePathsStayAsGiven() throws Exception {
    Path sub = Files.createDirectories(pkiDir.resolve("conf.d"));
    Path f = sub.resolve("web.yml");
    Files.writeString(f, "tls_server_config:\n  cert_file: " + pki.file("server.crt") + "\n  key_file: ../server.key\n");
    var tls = WebConfigParser.parse(f).tls().orElseThrow();
    assertEquals(pki.file("server.crt"), tls.certFile());
    assertEquals(pki.file("server.key"), tls.keyFile());
    assertEquals(TlsVersion.TLS12, tls.minVersion(), "default");
    assertEquals(ClientAuth.NoClientCert, tls.clientAuth(), "default");
  }

  @Test
  void emptyFileAndEmptyTlsSectionMeanPlainHttp() throws Exception {
    assertEquals(WebConfig.NONE, WebConfigParser.parse(write("")));
    assertEquals(WebConfig.NONE, WebConfigParser.parse(write("# nothing yet\n")));
    WebConfig web = WebConfigParser.parse(write("tls_server_config: {}\nbasic_auth_users:\n"));
    assertTrue(web.tls().isEmpty());
    assertFalse(web.basicAuth());
  }

  @Test
  void keyFormatsFromOpensslAndOlderToolsAreAccepted() throws Exception {
    // PKCS#1 RSA and SEC1 EC (with its EC PARAMETERS block) besides PKCS#8.
    assertTrue(WebConfigParser.parse(write("tls_server_config:\n  cert_file: server.crt\n  key_file: server-pkcs1.key\n")).tls().isPresent());
    assertTrue(WebConfigParser.parse(write("tls_server_config:\n  cert_file: server-ec.crt\n  key_file: server-ec.key\n")).tls().isPresent());
    assertTrue(Files.readString(pki.file("server-ec.key")).contains("EC PARAMETERS"), "the SEC1 case is really tested");
    assertTrue(Files.readString(pki.file("server-pkcs1.key")).contains("RSA PRIVATE KEY"), "the PKCS#1 case is really tested");
  }

  @Test
  void unknownKeysAreNamed() throws Exception {
    assertTrue(error("tls_config:\n  cert_file: x\n").contains(": tls_config: unknown key"));
    String m = error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  certfile: x\n");
    assertTrue(m.contains("tls_server_config.certfile: unknown key"), m);
  }

  @Test
  void exporterToolkitKeysHeadroomDoesNotImplementSaySo() throws Exception {
    String m = error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n");
    assertTrue(m.contains("tls_server_config.cipher_suites: exporter-toolkit key not supported"), m);
    assertTrue(error("http_server_config:\n  http2: false\n").contains("http_server_config: exporter-toolkit key not supported"));
  }

  @Test
  void missingCertificateFileIsNamed() throws Exception {
    String m = error("tls_server_config:\n  cert_file: nope.crt\n  key_file: server.key\n");
    assertTrue(m.contains("tls_server_config.cert_file: " + pkiDir.resolve("nope.crt") + " does not exist"), m);
  }

  @Test
  void certWithoutKeyIsAnError() throws Exception {
    String m = error("tls_server_config:\n  cert_file: server.crt\n");
    assertTrue(m.contains("tls_server_config.key_file: missing"), m);
  }

  @Test
  void unreadableOrWrongKeysAreNamed() throws Exception {
    Files.writeString(pkiDir.resolve("garbage.key"), "not a key\n");
    String m = error("tls_server_config:\n  cert_file: server.crt\n  key_file: garbage.key\n");
    assertTrue(m.contains("tls_server_config.key_file: ") && m.contains("not a PEM file"), m);

    m = error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.crt\n");
    assertTrue(m.contains("tls_server_config.key_file: ") && m.contains("no PEM private key block (found [CERTIFICATE])"), m);

    pki.openssl("pkcs8", "-topk8", "-in", "client.key", "-passout", "pass:secret", "-out", "encrypted.key");
    m = error("tls_server_config:\n  cert_file: server.crt\n  key_file: encrypted.key\n");
    assertTrue(m.contains("tls_server_config.key_file: ") && m.contains("encrypted"), m);

    m = error("tls_server_config:\n  cert_file: server.crt\n  key_file: server-ec.key\n");
    assertTrue(m.contains("tls_server_config.key_file: ") && m.contains("does not belong to"), m);

    m = error("tls_server_config:\n  cert_file: server-ec.crt\n  key_file: client.key\n");
    assertTrue(m.contains("does not belong to") && m.contains("does not match the certificate's public key"), m);

    Path dir = Files.createDirectories(pkiDir.resolve("a-directory.key"));
    m = error("tls_server_config:\n  cert_file: server.crt\n  key_file: " + dir + "\n");
    assertTrue(m.contains("is a directory"), m);
  }

  @Test
  void badTlsVersionsAreNamed() throws Exception {
    String base = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n";
    assertTrue(error(base + "  min_version: TLS1.2\n").contains("tls_server_config.min_version: unknown TLS version 'TLS1.2'"));
    assertTrue(error(base + "  min_version: TLS10\n").contains("tls_server_config.min_version: TLS10 is insecure"));
    assertTrue(error(base + "  min_version: TLS13\n  max_version: TLS12\n").contains("tls_server_config.max_version: TLS12 is below min_version TLS13"));
    assertTrue(error(base + "  min_version: 12\n").contains("tls_server_config.min_version: expected a string, got an integer"));
  }

  @Test
  void clientAuthNeedsAConsistentCa() throws Exception {
    String base = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n";
    assertTrue(error(base + "  client_auth_type: RequireAndVerifyClientCert\n").contains("tls_server_config.client_ca_file: required by client_auth_type RequireAndVerifyClientCert"));
    assertTrue(error(base + "  client_ca_file: ca.crt\n").contains("tls_server_config.client_ca_file: given, but client_auth_type is NoClientCert"));
    assertTrue(error(base + "  client_auth_type: RequireClientCert\n").contains("tls_server_config.client_auth_type: unknown value 'RequireClientCert'"));
    assertTrue(error(base + "  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: missing-ca.crt\n").contains("tls_server_config.client_ca_file: " + pkiDir.resolve("missing-ca.crt") + " does not exist"));
  }

  @Test
  void badBcryptHashesNameTheUser() throws Exception {
    String m = error("basic_auth_users:\n  prometheus: secret\n");
    assertTrue(m.contains("basic_auth_users.prometheus: bad bcrypt hash: not a bcrypt hash"), m);
    m = error("basic_auth_users:\n  prometheus: " + HASH.substring(0, 50) + "\n");
    assertTrue(m.contains("basic_auth_users.prometheus: bad bcrypt hash: malformed"), m);
    m = error("basic_auth_users:\n  prometheus:\n");
    assertTrue(m.contains("basic_auth_users.prometheus: expected a non-empty string, got nothing"), m);
    m = error("basic_auth_users:\n  'a:b': " + HASH + "\n");
    assertTrue(m.contains("basic_auth_users.a:b: user names cannot contain ':'"), m);
  }

  @Test
  void yamlMistakesAreReported() throws Exception {
    String dup = error("basic_auth_users:\n  a: " + HASH + "\n  a: " + HASH + "\n");
    assertTrue(dup.contains("not valid YAML: line 3, column 3: found duplicate key a"), dup);
    assertTrue(error("- just\n- a list\n").contains("(top level): expected a mapping, got a list"));
    assertTrue(error("tls_server_config: yes\n").contains("tls_server_config: expected a mapping"));
  }

  @Test
  void missingWebConfigFileIsNamed() {
    Path f = pkiDir.resolve("absent.yml");
    WebConfigException e = assertThrows(WebConfigException.class, () -> WebConfigParser.parse(f));
    assertEquals(f + ": web config file does not exist", e.getMessage());
  }
}
