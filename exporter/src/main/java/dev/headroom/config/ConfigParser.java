package dev.headroom.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import picocli.CommandLine;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The daemon's configuration from the {@link Settings} flags over the optional YAML file named by
 * {@code --config.file} (keys are the flag names without dashes; nested maps are joined with dots) over the
 * defaults. The file's values reach picocli as defaults, so they go through the same converters as flags, and a
 * bad value is named {@code --key: ...} when it came as a flag, {@code config file F: key: ...} when from the
 * file. Unknown keys and bad values are errors; a flag given twice keeps the last.
 *
 * <p>Usage: {@code Config c = ConfigParser.parse(new String[] {"--tunnel.interface=wt1"}).config();}
 */
public final class ConfigParser {
  private ConfigParser() {}

  /** The configuration plus the setting flags it came from, which a reload parses again over a re-read file. */
  public record Parsed(Config config, List<String> flags) {}

  /**
   * Parses setting flags only (no command word) and reads the file {@code --config.file} names, now, so a reload
   * sees its edits.
   */
  public static Parsed parse(String[] args) throws ConfigException {
    Settings settings = new Settings();
    CommandLine cl = Settings.typed(new CommandLine(settings));
    cl.setExpandAtFiles(false);
    cl.setOverwrittenOptionsAllowed(true);
    cl.getCommandSpec().interpolateVariables(false); // a file's value is taken as written
    FileValues file = new FileValues(settings, cl.getCommandSpec());
    cl.setDefaultValueProvider(file);
    try {
      cl.parseArgs(args);
      file.values(); // read and checked even when every key came as a flag
    } catch (ParameterException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof ConfigException c) {
          throw c;
        }
      }
      if (e.getArgSpec() instanceof OptionSpec o && e.getCause() != null) {
        throw new ConfigException(file.where(o) + ": " + e.getCause().getMessage());
      }
      throw new ConfigException(Flags.message(e));
    }
    return new Parsed(settings.check(file), List.of(args));
  }

  /** The YAML file's values, handed to picocli as the defaults of the options not given as flags. */
  private static final class FileValues implements IDefaultValueProvider, Checks {
    private final Settings settings;
    private final CommandSpec spec;
    private Map<String, String> values;

    FileValues(Settings settings, CommandSpec spec) {
      this.settings = settings;
      this.spec = spec;
    }

    /** picocli asks after the flags are parsed, so {@code --config.file} is known by then. */
    Map<String, String> values() throws ConfigException {
      if (values == null) {
        values = settings.configFile == null ? Map.of() : readYaml(settings.configFile, spec);
      }
      return values;
    }

    @Override
    public String defaultValue(ArgSpec arg) throws ConfigException {
      return values().get(key(arg));
    }

    /**
     * How to name a setting in an error: as the flag given, else as the file's key, else by its key. Flags are
     * converted before the file is read, so an error before then is a flag's.
     */
    String where(ArgSpec arg) {
      if (values == null || !arg.originalStringValues().isEmpty()) {
        return "--" + key(arg);
      }
      return values.containsKey(key(arg)) ? "config file " + settings.configFile + ": " + key(arg) : key(arg);
    }

    @Override
    public String text(String key) {
      ArgSpec arg = spec.findOption("--" + key);
      List<String> given = arg.originalStringValues();
      return !given.isEmpty() ? given.get(given.size() - 1) : values.getOrDefault(key, arg.defaultValue());
    }

    @Override
    public void require(boolean ok, String key, String problem) throws ConfigException {
      if (!ok) {
        throw new ConfigException(where(spec.findOption("--" + key)) + ": '" + text(key) + "' " + problem);
      }
    }
  }

  private static String key(ArgSpec arg) {
    return ((OptionSpec) arg).longestName().substring(2);
  }

  private static Map<String, String> readYaml(Path file, CommandSpec spec) throws ConfigException {
    Object root;
    try (Reader r = Files.newBufferedReader(file)) {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
    } catch (IOException e) {
      throw new ConfigException("config file " + file + ": cannot read: " + e.getMessage());
    } catch (YAMLException e) {
      throw new ConfigException("config file " + file + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
    }
    Map<String, String> out = new LinkedHashMap<>();
    if (root == null) {
      return out;
    }
    if (!(root instanceof Map<?, ?> m)) {
      throw new ConfigException("config file " + file + ": expected a map of settings at the top level");
    }
    flatten(file, "", m, out, spec);
    return out;
  }

  private static void flatten(Path file, String prefix, Map<?, ?> m, Map<String, String> out, CommandSpec spec)
      throws ConfigException {
    for (Map.Entry<?, ?> e : m.entrySet()) {
      String key = prefix + e.getKey();
      if (e.getValue() instanceof Map<?, ?> inner) {
        flatten(file, key + ".", inner, out, spec);
        continue;
      }
      if (key.equals("config.file")) {
        throw new ConfigException("config file " + file + ": 'config.file' cannot be set inside a config file");
      }
      if (spec.findOption("--" + key) == null) {
        String near = Flags.nearest(spec, "--" + key);
        throw new ConfigException("config file " + file + ": unknown key '" + key + "'"
            + (near.isEmpty() ? "" : "; did you mean '" + near.substring(2) + "'?"));
      }
      Object v = e.getValue();
      String value = v instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
          : v == null ? "" : String.valueOf(v);
      if (!value.isBlank()) { // an empty value leaves the default
        out.put(key, value);
      }
    }
  }
}
