package dev.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ParseLoaderTest {
  /** System.gc() is a request; a few requests let a collection that unloads classes happen. */
  private static boolean collected(WeakReference<ClassLoader> ref) {
    for (int i = 0; i < 20 && ref.get() != null; i++) {
      System.gc();
    }
    return ref.get() == null;
  }

  @Test
  void nothingOfTheParseLoaderIsKeptOnceFlagsAreParsed() throws Exception {
    Map<String, String> flags = ConfigParser.parse(new String[] {"--tunnel.interface=wt1"}).flags();
    assertEquals(Map.of("tunnel.interface", "wt1"), flags);
    assertTrue(collected(ParseLoader.last()), "the parse's loader (and picocli with it) is still reachable");
  }

  @Test
  void nothingOfTheParseLoaderIsKeptAfterAnError() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigParser.parse(new String[] {"--tunnel.interfce=wt0"}));
    assertTrue(e.getMessage().contains("did you mean '--tunnel.interface'"), e.getMessage());
    assertTrue(collected(ParseLoader.last()), "an error kept the parse's loader reachable");
  }

  @Test
  void picocliAndTheClassesNamingItComeFromTheParseLoaderOnly() throws Exception {
    ClassLoader loader = ParseLoader.create();
    // The same names the application's loader would give are other classes here: a second copy, unloadable.
    assertNotSame(Flags.class, loader.loadClass("dev.headroom.config.Flags"));
    assertEquals(loader, loader.loadClass("picocli.CommandLine").getClassLoader());
    assertEquals(loader, loader.loadClass("dev.headroom.cmd.SizeCommand$UsageException").getClassLoader());
    // What a parse hands back is the application's: JDK types, the parent's exceptions and config types.
    assertEquals(ConfigException.class, loader.loadClass("dev.headroom.config.ConfigException"));
    assertEquals(ConfigParser.class, loader.loadClass("dev.headroom.config.ConfigParser"));
  }

  @Test
  void everyClassThatNamesPicocliIsLoadedOnlyByTheParseLoader() throws Exception {
    // A class outside ParseLoader.OWN that names picocli would load it through the application's loader, for good.
    Path classes = Path.of(ParseLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> naming;
    try (Stream<Path> files = Files.walk(classes)) {
      naming = files.filter(f -> f.toString().endsWith(".class"))
          .filter(f -> {
            try {
              return new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains("picocli/");
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          })
          .map(f -> classes.relativize(f).toString().replace('/', '.').replaceAll("(\\$.*)?\\.class$", ""))
          .distinct().sorted().toList();
    }
    assertEquals(ParseLoader.OWN.stream().sorted().toList(), naming);
  }
}
