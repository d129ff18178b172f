package dev.headroom.serve.web;

import dev.headroom.json.Json;
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
  record File(TlsFile tls_server_config, Map<String, String> basic_auth_users) {}

  record TlsFile(
      String cert_file,
      String key_file,
      String client_auth_type,
      String client_ca_file,
      String min_version,
      String max_version,
      Boolean prefer_server_cipher_suites) {
    boolean empty() {
      return cert_file == null && key_file == null && client_auth_type == null && client_ca_file == null
          && min_version == null && max_version == null && prefer_server_cipher_suites == null;
    }
  }

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
    Context c = new Context(abs);
    File root;
    try (Reader r = Files.newBufferedReader(abs, StandardCharsets.UTF_8)) {
      root = Json.readYaml(File.class, r);
    } catch (NoSuchFileException e) {
      throw new WebConfigException(abs + ": web config file does not exist");
    } catch (AccessDeniedException e) {
      throw new WebConfigException(abs + ": web config file is not readable (permission denied)");
    } catch (IOException e) {
      throw new WebConfigException(abs + ": cannot read web config file: " + e.getMessage(), e);
    } catch (Json.JsonException e) {
      if (e.path().isEmpty()) {
        throw new WebConfigException(abs + ": not valid YAML: " + e.getMessage().replace('\n', ' '), e);
      }
      String reason = UNSUPPORTED.get(e.path());
      throw c.error(e.path(), reason == null ? e.problem()
          : "exporter-toolkit key not supported by headroom (" + reason + ")");
    }
    return c.config(root);
  }

  private record Context(Path file) {
    WebConfigException error(String key, String problem) {
      return new WebConfigException(file + ": " + key + ": " + problem);
    }

    WebConfig config(File root) {
      if (root == null) {
        return WebConfig.NONE; // an empty file means plain HTTP, as in the exporter-toolkit
      }
      Optional<Tls> tls = tls(root.tls_server_config());
      Map<String, String> users = users(root.basic_auth_users());
      return new WebConfig(tls, users);
    }

    Optional<Tls> tls(TlsFile m) {
      String k = "tls_server_config";
      if (m == null || m.empty()) {
        return Optional.empty();
      }
      Path cert = path(k + ".cert_file", m.cert_file());
      Path key = path(k + ".key_file", m.key_file());
      List<X509Certificate> chain = read(k + ".cert_file", cert, Pem::certificates);
      PrivateKey pk = read(k + ".key_file", key, Pem::privateKey);
      try {
        Pem.checkPair(pk, chain.get(0));
      } catch (IOException e) {
        throw error(k + ".key_file", key + " does not belong to " + cert + ": " + e.getMessage());
      }

      ClientAuth auth = ClientAuth.NoClientCert;
      if (m.client_auth_type() != null) {
        String name = string(k + ".client_auth_type", m.client_auth_type());
        auth =
            Arrays.stream(ClientAuth.values())
                .filter(a -> a.name().equals(name))
                .findFirst()
                .orElseThrow(
                    () ->
                        error(k + ".client_auth_type",
                            "unknown value '" + name + "'; one of "
                                + Arrays.stream(ClientAuth.values()).map(Enum::name).collect(Collectors.joining(", "))));
      }
      Optional<Path> ca = Optional.empty();
      if (m.client_ca_file() != null) {
        Path caPath = path(k + ".client_ca_file", m.client_ca_file());
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
      TlsVersion min = version(k + ".min_version", m.min_version()).orElse(TlsVersion.TLS12);
      Optional<TlsVersion> max = version(k + ".max_version", m.max_version());
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
        case "TLS12" -> Optional.of(TlsVersion.TLS12);
        case "TLS13" -> Optional.of(TlsVersion.TLS13);
        case "TLS10", "TLS11" -> throw error(key, v + " is insecure and disabled in the JDK; use TLS12 or TLS13");
        default -> throw error(key, "unknown TLS version '" + v + "'; use TLS12 or TLS13");
      };
    }

    Map<String, String> users(Map<String, String> m) {
      String k = "basic_auth_users";
      if (m == null) {
        return Map.of();
      }
      Map<String, String> users = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : m.entrySet()) {
        String user = e.getKey();
        String key = k + "." + user;
        if (user.isEmpty()) {
          throw error(k, "empty user name");
        }
        if (user.contains(":")) {
          throw error(key, "user names cannot contain ':' (basic auth splits on it)");
        }
        String hash = string(key, e.getValue());
        try {
          Bcrypt.parse(hash);
        } catch (IllegalArgumentException ex) {
          throw error(key, "bad bcrypt hash: " + ex.getMessage());
        }
        users.put(user, hash);
      }
      return users;
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
      if (!Files.isReadable(p)) {
        throw error(key, p + " is not readable by this user (" + System.getProperty("user.name") + ")");
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
}
