package dev.headroom.serve.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.net.Socket;
import java.security.Principal;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away PKI made with the openssl command line in a temp dir: a CA, server certificates (RSA in
 * PKCS#8, RSA in PKCS#1, EC in SEC1), client certificates (valid, expired, from another CA).
 */
final class TestPki {
  final Path dir;

  TestPki(Path dir) throws IOException, InterruptedException {
    this.dir = dir;
    ca("ca");
    ca("other-ca");
    // Server: RSA key in PKCS#8 ("PRIVATE KEY"), the form openssl 3 writes by default.
    openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "server.key");
    sign("ca", "server", "/CN=headroom test server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth");
    // The same key in PKCS#1 ("RSA PRIVATE KEY"), as older tools write it.
    openssl("rsa", "-in", "server.key", "-traditional", "-out", "server-pkcs1.key");
    // Server: EC key in SEC1 ("EC PRIVATE KEY" after "EC PARAMETERS"), as `openssl ecparam -genkey` writes it.
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-out", "server-ec.key");
    sign("ca", "server-ec", "/CN=headroom test server ec", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth");
    ecKey("client");
    sign("ca", "client", "/CN=prometheus", "extendedKeyUsage=clientAuth");
    ecKey("client-other");
    sign("other-ca", "client-other", "/CN=prometheus", "extendedKeyUsage=clientAuth");
    ecKey("client-expired");
    expired("ca", "client-expired", "/CN=prometheus");
  }

  Path file(String name) {
    return dir.resolve(name);
  }

  /** An SSL context that trusts {@code ca.crt} and, if {@code client} is given, presents that certificate. */
  SSLContext clientContext(String client) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", Pem.certificates(file("ca.crt")).get(0));
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    KeyManagerFactory kmf = null;
    if (client != null) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      PrivateKey key = Pem.privateKey(file(client + ".key"));
      List<X509Certificate> chain = Pem.certificates(file(client + ".crt"));
      keys.setKeyEntry("client", key, "x".toCharArray(), chain.toArray(X509Certificate[]::new));
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, "x".toCharArray());
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    KeyManager[] km = kmf == null ? null : new KeyManager[] {new AlwaysPresent((X509ExtendedKeyManager) kmf.getKeyManagers()[0])};
    ctx.init(km, tmf.getTrustManagers(), null);
    return ctx;
  }

  /**
   * Presents the client certificate even when the server's list of accepted issuers does not name its CA;
   * the JDK's own key manager would silently send none, and a wrong-CA test would test nothing.
   */
  private static final class AlwaysPresent extends X509ExtendedKeyManager {
    private final X509ExtendedKeyManager d;

    AlwaysPresent(X509ExtendedKeyManager d) {
      this.d = d;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return "client";
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
      return "client";
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[] {"client"};
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return d.getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return d.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return d.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return d.getPrivateKey(alias);
    }
  }

  private void ca(String name) throws IOException, InterruptedException {
    ecKey(name);
    openssl("req", "-x509", "-new", "-key", name + ".key", "-subj", "/CN=headroom test " + name,
        "-days", "3", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", name + ".crt");
  }

  private void ecKey(String name) throws IOException, InterruptedException {
    openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name + ".key");
  }

  private void sign(String ca, String name, String subject, String extensions)
      throws IOException, InterruptedException {
    Files.writeString(file(name + ".ext"), extensions + "\n");
    openssl("req", "-new", "-key", name + ".key", "-subj", subject, "-out", name + ".csr");
    openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key",
        "-CAcreateserial", "-days", "2", "-sha256", "-extfile", name + ".ext", "-out", name + ".crt");
  }

  /** A certificate valid for one day in 2020: `openssl ca` is the tool that takes explicit dates. */
  private void expired(String ca, String name, String subject) throws IOException, InterruptedException {
    Files.createDirectories(file("ca-db"));
    Files.writeString(file("ca-db/index.txt"), "");
    Files.writeString(file("ca-db/serial"), "1000\n");
    Files.writeString(file("ca-db/ca.cnf"),
        String.join("\n",
            "[ca]", "default_ca = d",
            "[d]", "database = " + file("ca-db/index.txt"), "new_certs_dir = " + file("ca-db"),
            "serial = " + file("ca-db/serial"), "default_md = sha256", "policy = p", "unique_subject = no",
            "x509_extensions = e", "[p]", "commonName = supplied", "[e]", "extendedKeyUsage = clientAuth", ""));
    openssl("req", "-new", "-key", name + ".key", "-subj", subject, "-out", name + ".csr");
    openssl("ca", "-batch", "-config", "ca-db/ca.cnf", "-cert", ca + ".crt", "-keyfile", ca + ".key",
        "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-notext",
        "-in", name + ".csr", "-out", name + ".crt");
  }

  void openssl(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add("openssl");
    cmd.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException("these tests need the openssl command line tool (apt-get install openssl)", e);
    }
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed:\n" + new String(out, StandardCharsets.UTF_8));
    }
  }
}
