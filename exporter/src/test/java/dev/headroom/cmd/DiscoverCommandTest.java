package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.testing.LogCapture;
import dev.headroom.testing.NetbirdApiStandIn;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiscoverCommandTest {
  static final String TOKEN = "nbp_Zq3standInTokenNeverShown0123456789";
  @TempDir Path dir;
  private final NetbirdApiStandIn api = NetbirdApiStandIn.start(TOKEN);
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @AfterEach
  void stop() {
    api.close();
  }

  private int run(String... args) throws Exception {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Path token(String t) throws Exception {
    return Files.writeString(dir.resolve("netbird-token"), t + "\n");
  }

  @Test
  void aMissingTokenFileIsOneLineAndExitTwo() throws Exception {
    assertEquals(2, run("discover", "--netbird.token-file=" + dir.resolve("absent"), "--netbird.api-url=" + api.url()));
    assertEquals("headroom discover: --netbird.token-file " + dir.resolve("absent") + ": no such file\n", err());
    assertTrue(api.requests().isEmpty(), "nothing is asked without a token");
  }

  @Test
  void anEmptyTokenFileIsRefused() throws Exception {
    assertEquals(2, run("discover", "--netbird.token-file=" + token(" "), "--netbird.api-url=" + api.url()));
    assertTrue(err().endsWith(": empty\n"), err());
  }

  @Test
  void aRefusedTokenAtStartIsOneLineAndExitOne() throws Exception {
    try (LogCapture log = LogCapture.start()) {
      assertEquals(1, run("discover", "--netbird.token-file=" + token("nbp_revoked"), "--netbird.api-url=" + api.url(),
          "--web.listen-address=127.0.0.1:0"));
      assertEquals(1, err().lines().count(), err());
      assertTrue(err().startsWith("headroom discover: GET /api/networks: 401 Unauthorized"), err());
      assertFalse(err().contains("nbp_revoked") || log.text().contains("nbp_revoked"));
      assertFalse(log.text().contains("401"), "said once, on the command's own line: " + log.text());
    }
  }

  @Test
  void onceForbiddenIsAlsoRefused() throws Exception {
    api.answer("/api/networks", 403, "{\"message\":\"forbidden\"}");
    assertEquals(1, run("discover", "--once", "--netbird.token-file=" + token(TOKEN), "--netbird.api-url=" + api.url()));
    assertTrue(err().contains("403 Forbidden"), err());
  }

  @Test
  void oncePrintsEachNetworkItsPrimaryAndTheRulesBroken() throws Exception {
    assertEquals(0, run("discover", "--once", "--netbird.token-file=" + token(TOKEN), "--netbird.api-url=" + api.url()));
    String o = out();
    assertTrue(o.startsWith("4 Networks, 6 scrape targets, from 5 peers NetBird lists\n"), o);
    assertTrue(o.contains("Network dc-east (net-east): 2 enabled routing peers\n"
        + "  primary  router-east-1  metric 100  100.64.0.11:10170\n"
        + "  standby  router-east-2  metric 200  100.64.0.12:10170\n"
        + "  broken: a routing peer also routes another Network: two Networks' routers on one box;"
        + " router-east-1 also routes lab\n"), o);
    assertTrue(o.contains("Network dc-west (net-west): 1 enabled routing peer\n"
        + "  primary  router-west-1  metric 100  100.64.0.21:10170  not connected to management\n"
        + "  broken: fewer than 2 enabled routing peers: no standby\n"), o);
    assertTrue(o.contains("  disabled router-lab-1  metric 100  100.64.0.31:10170\n"), o);
    assertTrue(o.contains("Network office-lan (route-office, a network route)"), o);
    assertTrue(o.endsWith("4 of 4 Networks break the guide's rules\n"), o);
    assertEquals("", err());
  }

  @Test
  void onceExitsOneWhenNetBirdFails() throws Exception {
    api.answer("/api/routes", 502, "bad gateway");
    assertEquals(1, run("discover", "--once", "--netbird.token-file=" + token(TOKEN), "--netbird.api-url=" + api.url()));
    assertEquals("headroom discover: cannot read NetBird's inventory: GET /api/routes: 502 server error\n", err());
  }

  @Test
  void badFlagsAreNamed() throws Exception {
    assertEquals(2, run("discover", "--netbird.token-file=x", "--discover.target-address=hostname"));
    assertTrue(err().contains("--discover.target-address 'hostname' is neither ip nor dns"), err());
    err.reset();
    assertEquals(2, run("discover"));
    assertTrue(err().contains("--netbird.token-file"), err());
  }

  @Test
  void discoverHasItsOwnHelp() throws Exception {
    assertEquals(0, run("discover", "--help"));
    assertTrue(out().startsWith("usage: headroom discover"), out());
    assertTrue(out().contains("--netbird.token-file") && out().contains("--discover.target-port")
        && !out().contains("--tunnel.interface"), out());
  }
}
