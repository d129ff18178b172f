package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConnectionTest {
  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(nullValues = "none", value = {
      // kernel WireGuard behind NetBird's eBPF or UDP proxy; wireguard-go's made-up relay address; IPv6 loopback
      "127.0.0.1:41234, RELAYED", "127.1.12.34:51820, RELAYED", "'[::1]:40000', RELAYED",
      "203.0.113.7:51820, P2P", "'[2001:db8::1]:51820', P2P", "10.0.3.7:51820, P2P", "none, UNKNOWN"})
  void aWireguardEndpointTellsARelayedPeerByNetbirdsLoopbackProxy(String endpoint, Connection expected) {
    assertEquals(expected, Connection.ofEndpoint(endpoint));
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({"P2P, P2P", "Relayed, RELAYED", "relayed, RELAYED", "-, UNKNOWN", "'', UNKNOWN"})
  void netbirdsConnectionTypeIsReadAsItPrintsIt(String type, Connection expected) {
    assertEquals(expected, Connection.ofNetbirdType(type));
  }
}
