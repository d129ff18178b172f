package dev.headroom.serve.web;

import dev.headroom.serve.web.WebConfig.ClientAuth;
import dev.headroom.serve.web.WebConfig.Tls;
import dev.headroom.serve.web.WebConfig.TlsVersion;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads and validates an exporter-toolkit web config file, failing at start with an error that names the
 * key and the problem rather than at the first scrape.
 *
 * <p>Usage: {@code WebConfig web = WebConfigParser.parse(Path.of("/etc/headroom/web.yml"));}
 *
 * <pre>
 * tls_server_config:
 *   cert_file: tls.crt            # relative paths resolve against this file's directory
 *   key_file: tls.key
 *   min_version: TLS12            # TLS12 (default) or TLS13
 *   client_auth_type: RequireAndVerifyClientCert
 *   client_ca_file: clients-ca.crt
 * basic_auth_users:
 *   prometheus: $2y$10$...        # htpasswd -nBC 10 prometheus
 * </pre>
 */
public final class WebConfigParser {
  /** The file's keys, as the exporter-toolkit spells them. */
  private static final List<String> TOP_KEYS = List.of("tls_server_config", "basic_auth_users");

  private static final List<String> TLS_KEYS = List.of("cert_file", "key_file", "client_auth_type", "client_ca_file",
      "min_version", "max_version", "prefer_server_cipher_suites");

  /** Keys the exporter-toolkit knows that headroom deliberately does not implement. */
  private static final Map<String, String> UNSUPPORTED =
      Map.of(
          "http_server_config", "HTTP/2 and custom response headers are not offered",
          "rate_limit", "headroom applies its own fixed request limits",
          "tls_server_config.cert", "give the certificate as cert_file",
          "tls_server_config.key", "give the key as key_file",
          "tls_server_config.cipher_suites", "the JDK's default suites apply",
          "tls_server_config.curve_preferences", "the JDK's default groups apply",
          "tls_server_config.client_allowed_sans", "restrict clients with client_ca_file instead");

  private WebConfigParser() {}

  /**
   * Parses and validates {@code file}: keys, TLS versions, client auth mode, that the certificate and key
   * files exist, are readable, parse, and belong together, and that every bcrypt hash is well formed.
   *
   * @throws WebConfigException naming the file, the key and the problem
   */
  public static WebConfig parse(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    Object root;
    try (Reader r = Files.newBufferedReader(abs, StandardCharsets.UTF_8)) {
      LoaderOptions options = new LoaderOptions();
      options.setAllowDuplicateKeys(false); // the operator's own file: a key given twice is a mistake
      root = new Yaml(new SafeConstructor(options)).load(r);
    } catch (NoSuchFileException e) {
      throw new WebConfigException(abs + ": web config file does not exist");
    } catch (AccessDeniedException e) {
      throw new WebConfigException(abs + ": web config file is not readable (permission denied)");
    } catch (IOException e) {
      throw new WebConfigException(abs + ": cannot read web config file: " + e.getMessage(), e);
    } catch (YAMLException e) {
      throw new WebConfigException(abs + ": not valid YAML: " + problem(e), e);
    }
    return new Context(abs).config(root);
  }

  private record Context(Path file) {
    WebConfigException error(String key, String problem) {
      return new WebConfigException(file + ": " + key + ": " + problem);
    }

    WebConfig config(Object root) {
      if (root == null) {
        return WebConfig.NONE; // an empty file means plain HTTP, as in the exporter-toolkit
      }
      Map<String, Object> top = mapping("", root, TOP_KEYS);
      Optional<Tls> tls = tls(top.get("tls_server_config"));
      Map<String, String> users = users(top.get("basic_auth_users"));
      return new WebConfig(tls, users);
    }

    /**
     * {@code node} as a mapping of the given keys; "key:" with nothing after it is an absent mapping. A key the
     * file may not hold is an error: YAML here is the operator's own file, where a typo must not pass silently.
     */
    Map<String, Object> mapping(String key, Object node, List<String> known) {
      if (node == null) {
        return Map.of();
      }
      if (!(node instanceof Map<?, ?> m)) {
        throw error(key.isEmpty() ? "(top level)" : key, "expected a mapping, got " + describe(node));
      }
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String name = String.valueOf(e.getKey());
        String path = key.isEmpty() ? name : key + "." + name;
        if (known != null && !known.contains(name)) {
          String reason = UNSUPPORTED.get(path);
          throw error(path, reason == null ? "unknown key; known here: " + known
              : "exporter-toolkit key not supported by headroom (" + reason + ")");
        }
        out.put(name, e.getValue());
      }
      return out;
    }

    Optional<Tls> tls(Object node) {
      String k = "tls_server_config";
      Map<String, Object> m = mapping(k, node, TLS_KEYS);
      Map<String, String> s = new LinkedHashMap<>();
      for (String name : List.of("cert_file", "key_file", "client_auth_type", "client_ca_file", "min_version",
          "max_version")) {
        s.put(name, text(k + "." + name, m.get(name)));
      }
      Object prefer = m.get("prefer_server_cipher_suites");
      if (prefer != null && !(prefer instanceof Boolean)) {
        throw error(k + ".prefer_server_cipher_suites", "expected true or false, got " + describe(prefer));
      }
      if (prefer == null && s.values().stream().allMatch(v -> v == null)) {
        return Optional.empty();
      }
      Path cert = path(k + ".cert_file", s.get("cert_file"));
      Path key = path(k + ".key_file", s.get("key_file"));
      List<X509Certificate> chain = read(k + ".cert_file", cert, Pem::certificates);
      PrivateKey pk = read(k + ".key_file", key, Pem::privateKey);
      try {
        Pem.checkPair(pk, chain.get(0));
      } catch (IOException e) {
        throw error(k + ".key_file", key + " does not belong to " + cert + ": " + e.getMessage());
      }

      ClientAuth auth = ClientAuth.NoClientCert;
      if (s.get("client_auth_type") != null) {
        String name = string(k + ".client_auth_type", s.get("client_auth_type"));
        auth = Arrays.stream(ClientAuth.values()).filter(a -> a.name().equals(name)).findFirst()
            .orElseThrow(() -> error(k + ".client_auth_type", "unknown value '" + name + "'; one of "
                + Arrays.stream(ClientAuth.values()).map(Enum::name).collect(Collectors.joining(", "))));
      }
      Optional<Path> ca = Optional.empty();
      if (s.get("client_ca_file") != null) {
        Path caPath = path(k + ".client_ca_file", s.get("client_ca_file"));
        read(k + ".client_ca_file", caPath, Pem::certificates);
        ca = Optional.of(caPath);
        if (!auth.request) {
          throw error(k + ".client_ca_file",
              "given, but client_auth_type is NoClientCert; set client_auth_type: RequireAndVerifyClientCert");
        }
      }
      if (auth.verify && ca.isEmpty()) {
        throw error(k + ".client_ca_file", "required by client_auth_type " + auth.name());
      }
      TlsVersion min = version(k + ".min_version", s.get("min_version")).orElse(TlsVersion.TLS12);
      Optional<TlsVersion> max = version(k + ".max_version", s.get("max_version"));
      if (max.isPresent() && max.get().compareTo(min) < 0) {
        throw error(k + ".max_version", max.get() + " is below min_version " + min);
      }
      // prefer_server_cipher_suites is accepted (a boolean) and has no effect.
      return Optional.of(new Tls(cert, key, auth, ca, min, max));
    }

    Optional<TlsVersion> version(String key, String node) {
      if (node == null) {
        return Optional.empty();
      }
      String v = string(key, node);
      return switch (v) {
        case "TLS12", "TLS13" -> Optional.of(TlsVersion.valueOf(v));
        case "TLS10", "TLS11" -> throw error(key, v + " is insecure and disabled in the JDK; use TLS12 or TLS13");
        default -> throw error(key, "unknown TLS version '" + v + "'; use TLS12 or TLS13");
      };
    }

    Map<String, String> users(Object node) {
      String k = "basic_auth_users";
      Map<String, String> users = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : mapping(k, node, null).entrySet()) {
        String user = e.getKey();
        String key = k + "." + user;
        if (user.isEmpty()) {
          throw error(k, "empty user name");
        }
        if (user.contains(":")) {
          throw error(key, "user names cannot contain ':' (basic auth splits on it)");
        }
        String hash = string(key, text(key, e.getValue()));
        try {
          Bcrypt.parse(hash);
        } catch (IllegalArgumentException ex) {
          throw error(key, "bad bcrypt hash: " + ex.getMessage());
        }
        users.put(user, hash);
      }
      return users;
    }

    /** A scalar that must be text: null when absent, an error naming what was there instead. */
    String text(String key, Object node) {
      if (node != null && !(node instanceof String)) {
        throw error(key, "expected a string, got " + describe(node));
      }
      return (String) node;
    }

    String string(String key, String node) {
      if (node == null || node.isBlank()) {
        throw error(key, "expected a non-empty string, got " + (node == null ? "nothing" : "'" + node + "'"));
      }
      return node.strip();
    }

    Path path(String key, String node) {
      if (node == null) {
        throw error(key, "missing (cert_file and key_file are both required for TLS)");
      }
      Path p = Path.of(string(key, node));
      return file.getParent().resolve(p).normalize();
    }

    interface Loader<T> {
      T read(Path p) throws IOException;
    }

    <T> T read(String key, Path p, Loader<T> loader) {
      if (!Files.exists(p)) {
        throw error(key, p + " does not exist");
      }
      if (Files.isDirectory(p)) {
        throw error(key, p + " is a directory");
      }
      try {
        return loader.read(p);
      } catch (AccessDeniedException e) {
        throw error(key, p + " is not readable by this user (" + System.getProperty("user.name") + ")");
      } catch (IOException e) {
        throw error(key, p + ": " + e.getMessage());
      }
    }
  }

  /** Where and what, from the parser's mark and problem rather than its multi-line message. */
  private static String problem(YAMLException e) {
    if (e instanceof MarkedYAMLException m && m.getProblemMark() != null) {
      Mark at = m.getProblemMark();
      return "line " + (at.getLine() + 1) + ", column " + (at.getColumn() + 1) + ": " + m.getProblem();
    }
    return e.getMessage().lines().findFirst().orElse("");
  }

  /** What a YAML node is, in the file's own terms. */
  static String describe(Object node) {
    if (node instanceof Map<?, ?>) {
      return "a mapping";
    }
    if (node instanceof List<?>) {
      return "a list";
    }
    if (node instanceof Boolean) {
      return "a boolean";
    }
    if (node instanceof Integer || node instanceof Long || node instanceof java.math.BigInteger) {
      return "an integer";
    }
    if (node instanceof Number) {
      return "a fraction";
    }
    return node == null ? "nothing" : "a " + node.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }
}
