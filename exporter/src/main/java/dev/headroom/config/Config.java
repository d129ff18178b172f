package dev.headroom.config;

/**
 * The whole configuration, from flags and the optional YAML file; defaults need no file at all. One group per
 * part it configures, each defining its settings once (see {@link Settings}); nothing changes a group once
 * parsed, and a reload parses a new one.
 *
 * <p>Usage: {@code Config c = ConfigParser.parse(args).config(); Duration every = c.sampling().interval();}
 */
public record Config(
    WebSettings web,
    PathSettings paths,
    SampleSettings sampling,
    CeilingSettings ceilings,
    NetbirdSettings netbird,
    LabelSettings labels,
    CommandSettings commands) {}
