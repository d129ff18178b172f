package dev.headroom.serve.web;

import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the served certificate chain is inside its validity period: an expired or not-yet-valid
 * certificate starts silently otherwise, and every scrape then fails its TLS handshake.
 *
 * <p>Usage: {@code CertificateValidity v = CertificateValidity.read(tls.certFile()); v.problems(Instant.now()).forEach(log::warn);}
 *
 * @param file the certificate file, for messages
 * @param chain the certificates in it, leaf first
 */
public record CertificateValidity(Path file, List<X509Certificate> chain) {
  /** Reads {@code file}, which holds at least one certificate; the error names the file and what was wrong. */
  public static CertificateValidity read(Path file) {
    try {
      return new CertificateValidity(file, List.copyOf(Pem.certificates(file)));
    } catch (IOException e) {
      throw new WebConfigException("tls_server_config.cert_file: " + file + ": " + e.getMessage(), e);
    }
  }

  /** When the first certificate of the chain to expire does: the chain stops working then. */
  public Instant expiry() {
    return chain.stream().map(c -> c.getNotAfter().toInstant()).min(Instant::compareTo).orElseThrow();
  }

  /** One sentence per certificate of the chain that is expired or not yet valid at {@code now}. */
  public List<String> problems(Instant now) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < chain.size(); i++) {
      X509Certificate c = chain.get(i);
      String which = (i == 0 ? "the certificate " : "certificate " + (i + 1) + " of the chain ")
          + "in " + file + " (" + c.getSubjectX500Principal().getName() + ")";
      Instant notBefore = c.getNotBefore().toInstant();
      Instant notAfter = c.getNotAfter().toInstant();
      if (now.isAfter(notAfter)) {
        out.add(which + " expired at " + notAfter + "; TLS clients will refuse it");
      } else if (now.isBefore(notBefore)) {
        out.add(which + " is not valid until " + notBefore + "; TLS clients will refuse it (is the clock right?)");
      }
    }
    return out;
  }
}
