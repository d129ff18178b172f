package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The command line's text as a service sees it: a JVM started with no {@code LANG} (systemd's default) or
 * {@code LC_ALL=C}, whose default locale formats numbers the German way. Its output must be UTF-8 (no
 * {@code ?} for a character ASCII lacks) with numbers written the same as anywhere else.
 */
class LocaleIndependentOutputTest {
  private static String run(String localeEnv, String... args) throws IOException, InterruptedException {
    List<String> cmd = ChildJvm.command(Main.class, List.of("-Duser.language=de", "-Duser.country=DE"), args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.equals("LANG") || k.equals("LANGUAGE") || k.startsWith("LC_"));
    if (!localeEnv.isEmpty()) {
      env.put("LC_ALL", localeEnv);
    }
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the command ended");
    assertEquals(0, p.exitValue(), "exit status");
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out)).toString();
    } catch (CharacterCodingException e) {
      throw new AssertionError("output is not UTF-8", e);
    }
  }

  @ParameterizedTest(name = "LC_ALL={0}")
  @ValueSource(strings = {"", "C", "POSIX"})
  void sizePrintsUtf8AndRootNumbersWithoutALocale(String localeEnv) throws Exception {
    String out = run(localeEnv, "size", "--active-users", "3000", "--per-user", "10mbit", "--vcpus", "16");
    assertTrue(out.contains("expect about \u00b120 %"), out);
    assertFalse(out.contains("?"), "a character became '?': " + out);
    assertTrue(out.contains("3,000 active users"), "grouping as Locale.ROOT writes it, not 3.000: " + out);
  }
}
