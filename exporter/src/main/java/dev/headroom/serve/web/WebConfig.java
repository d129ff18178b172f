package dev.headroom.serve.web;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The validated content of a {@code --web.config.file}: the Prometheus exporter-toolkit web configuration
 * (TLS, mutual TLS, bcrypt basic auth). Paths are absolute, resolved against the file's directory.
 *
 * <p>Usage: {@code WebSecurity.apply(config, WebConfigParser.parse(Path.of("/etc/headroom/web.yml")), limits, refusals)};
 * without a web config file, {@code WebSecurity.apply(config, WebConfig.NONE, limits, refusals)} (plain HTTP, no auth,
 * same limits).
 *
 * @param tls TLS settings; empty for plain HTTP
 * @param basicAuthUsers user name to bcrypt hash (already checked to parse); empty for no authentication
 */
public record WebConfig(Optional<Tls> tls, Map<String, String> basicAuthUsers) {
  /** Plain HTTP, no authentication. */
  public static final WebConfig NONE = new WebConfig(Optional.empty(), Map.of());

  public WebConfig {
    basicAuthUsers = Map.copyOf(basicAuthUsers);
  }

  /** True when requests must carry basic auth credentials. */
  public boolean basicAuth() {
    return !basicAuthUsers.isEmpty();
  }

  /**
   * {@code tls_server_config}.
   *
   * @param clientCaFile CA bundle client certificates must chain to; present for the verifying modes
   * @param maxVersion empty: the highest the JDK offers
   */
  public record Tls(
      Path certFile,
      Path keyFile,
      ClientAuth clientAuth,
      Optional<Path> clientCaFile,
      TlsVersion minVersion,
      Optional<TlsVersion> maxVersion) {}

  /** Go's {@code tls.ClientAuthType} names, as the exporter-toolkit spells them. */
  public enum ClientAuth {
    NoClientCert(false, false, false),
    RequestClientCert(true, false, false),
    RequireAnyClientCert(true, true, false),
    VerifyClientCertIfGiven(true, false, true),
    RequireAndVerifyClientCert(true, true, true);

    /** Asks the client for a certificate. */
    public final boolean request;
    /** Refuses the handshake without one. */
    public final boolean require;
    /** Checks it against client_ca_file. */
    public final boolean verify;

    ClientAuth(boolean request, boolean require, boolean verify) {
      this.request = request;
      this.require = require;
      this.verify = verify;
    }
  }

  /** Supported TLS protocol versions; TLS 1.0 and 1.1 are disabled by the JDK and refused here. */
  public enum TlsVersion {
    TLS12("TLSv1.2"),
    TLS13("TLSv1.3");

    /** The JSSE protocol name. */
    public final String jsse;

    TlsVersion(String jsse) {
      this.jsse = jsse;
    }
  }
}
