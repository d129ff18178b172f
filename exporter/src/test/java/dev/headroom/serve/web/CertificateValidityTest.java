package dev.headroom.serve.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateValidityTest {
  @TempDir static Path dir;
  static TestPki pki;

  @BeforeAll
  static void pki() throws Exception {
    pki = new TestPki(dir);
  }

  @Test
  void anExpiredCertificateIsReportedWithItsExpiry() {
    CertificateValidity v = CertificateValidity.read(pki.file("client-expired.crt"));
    assertEquals(Instant.parse("2020-01-02T00:00:00Z"), v.expiry());
    List<String> problems = v.problems(Instant.now());
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains("expired at 2020-01-02T00:00:00Z"), problems.get(0));
  }

  @Test
  void aCertificateNotYetValidIsReported() {
    CertificateValidity v = CertificateValidity.read(pki.file("client-expired.crt"));
    List<String> problems = v.problems(Instant.parse("2019-06-01T00:00:00Z"));
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains("not valid until 2020-01-01T00:00:00Z"), problems.get(0));
  }

  @Test
  void aCurrentCertificateHasNoProblemAndExpiresWhenItSays() throws Exception {
    CertificateValidity v = CertificateValidity.read(pki.file("server.crt"));
    assertEquals(List.of(), v.problems(Instant.now()));
    assertEquals(Pem.certificates(pki.file("server.crt")).get(0).getNotAfter().toInstant(), v.expiry());
  }
}
