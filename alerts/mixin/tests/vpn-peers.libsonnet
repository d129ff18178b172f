// A non-default configuration for alerts/test.sh (render.sh --config alerts/mixin/tests/vpn-peers.libsonnet),
// read by vpn_peers_test.yml. The job, the label names, the runbook base and the near-ceiling threshold all
// differ from their defaults, so a rule or panel that still hard-codes one of them shows up.
{
  _config+:: {
    headroomSelector: 'job="vpn-peers"',
    networkLabel: 'vpn_network',
    siteLabel: 'vpn_site',
    // discover's scrape renames the inventory's `network` too (metric_relabel_configs).
    netbirdNetworkLabel: 'vpn_network',
    docsURLBase: 'https://wiki.example.com/ops/headroom-docs',
    runbookURLBase: 'https://wiki.example.com/ops/headroom-runbooks',
    peerNearCeilingThreshold: 0.85,
    peerNearCeilingFor: '20m',
    peerAtCeilingThreshold: 0.97,
    exporterAbsentFor: '3m',
  },
}
