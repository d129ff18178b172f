package dev.headroom.config;

import picocli.CommandLine.Option;

/**
 * Where this peer stands in the fleet, as labels of {@code headroom_peer_info}. Each field is one setting (flag,
 * config-file key, {@code --help} line, default); the accessors are the values the code reads.
 *
 * <p>Usage: {@code String network = config.labels().network();}
 */
public final class LabelSettings extends SettingsGroup {
  @Option(names = "--labels.network", paramLabel = "NAME", defaultValue = "default",
      description = "the NetBird Network this peer routes for (on headroom_peer_info) (default ${DEFAULT-VALUE})")
  private String network;
  @Option(names = "--labels.site", paramLabel = "NAME", defaultValue = "default",
      description = "the site of this peer (on headroom_peer_info) (default ${DEFAULT-VALUE})") private String site;

  public String network() {
    return network;
  }

  public String site() {
    return site;
  }
}
