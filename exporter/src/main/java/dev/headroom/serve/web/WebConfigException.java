package dev.headroom.serve.web;

/**
 * A web config file that cannot be used; the message names the file, the key and the problem, e.g.
 * {@code /etc/headroom/web.yml: tls_server_config.cert_file: /etc/headroom/tls.crt does not exist}.
 */
public final class WebConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public WebConfigException(String message) {
    super(message);
  }

  public WebConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
