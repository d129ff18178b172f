// Everything an operator may want to change in headroom's rules and dashboards. Override any key with
//   (import 'mixin.libsonnet') + { _config+:: { headroomSelector: 'job="vpn-peers"' } }
// or render with `alerts/mixin/render.sh --config FILE.libsonnet`, FILE holding `{ _config+:: { ... } }`.
{
  _config+:: {
    // --- Selection and labels -------------------------------------------------------------------------------
    // Selector of the headroom scrape targets. Only the `up` selectors of HeadroomExporterAbsent filter on it:
    // headroom_* series come only from headroom, and a job filter on them would only lose peers.
    headroomSelector: 'job=~".*headroom.*"',
    // The labels that place a peer, read only from headroom_peer_info (exporter flags --labels.network and
    // --labels.site). Change them when relabelling renames them (e.g. exported_network).
    networkLabel: 'network',
    siteLabel: 'site',

    // --- Links ----------------------------------------------------------------------------------------------
    // Every alert's runbook_url is runbookURLBase + '#' + the alert name in lower case.
    docsURLBase: 'https://github.com/headroom-dev/headroom/blob/main/docs',
    runbookURLBase: self.docsURLBase + '/runbooks.md',

    // --- headroom.peer.alerts -------------------------------------------------------------------------------
    // Utilization of the peer's ceiling (the larger of own direction and both directions counted).
    peerNearCeilingThreshold: 0.8,
    peerNearCeilingFor: '15m',
    peerAtCeilingThreshold: 0.95,
    peerAtCeilingFor: '5m',
    // The both-directions load counts for a direction only while it carries more than this (bytes/s).
    peerLoadMinBytesPerSecond: 1e6,
    // Share of the last 5 minutes a limiting verdict held.
    peerCpuBoundThreshold: 0.5,
    peerCpuBoundFor: '10m',
    peerLinkBoundThreshold: 0.5,
    peerLinkBoundFor: '10m',
    singleTunnelBoundThreshold: 0.5,
    singleTunnelBoundFor: '10m',
    // wireguard-go's plateau (Gbps, MTU 1280: the daemon's reference), the share of it that fires, and the share
    // of a userspace peer's own ceiling that fires too (the daemon's near-ceiling share). The daemon advises
    // enable_kernel_wireguard at the same marks; a Maven test keeps these equal to its figures.
    userspacePlateauDownloadGbps: 6.8,
    userspacePlateauUploadGbps: 4.4,
    userspacePlateauShare: 0.9,
    userspacePlateauCeilingRatio: 0.8,
    userspacePlateauFor: '15m',
    tunnelDownFor: '2m',
    // Age of the newest sample when scraped, seconds.
    samplerStalledSeconds: 30,
    samplerStalledFor: '2m',
    exporterAbsentFor: '5m',

    // --- headroom.network.rules and headroom.network.alerts -------------------------------------------------
    // How long a Network is remembered after its last peer stopped answering (network:headroom_peers:count).
    networkPeersSeenWindow: '1h',
    // Network load over the smallest peer ceiling.
    networkOverOnePeerThreshold: 1,
    networkOverOnePeerFor: '15m',
    networkNoStandbyFor: '5m',  // one peer up
    networkNoPeerUpFor: '2m',  // no peer up (critical)
    // Growth forecast: a straight line through forecastRange of the daily peak (1h steps), forecastHorizonDays
    // ahead, once forecastMinPoints hourly points exist.
    forecastRange: '14d',
    forecastMinPoints: 168,
    forecastHorizonDays: 28,
    forecastFor: '1h',

    // --- NetBird inventory (headroom discover) ---------------------------------------------------------------
    // On: the rules join the inventory `headroom discover` serves (headroom_netbird_*) to headroom's readings
    // (rendered as alerts/headroom-rules-netbird.yml). Every headroom target must then come from discover's
    // HTTP SD with `network` relabelled from __meta_netbird_network_name (alerts/README.md): the per-peer rules
    // key a peer by (job, instance, network), so a box that routes two Networks is two peers, one per Network.
    netbirdInventory: false,
    // Selector of the discover command's own scrape target. Only its `up` selectors filter on it (as
    // headroomSelector); HeadroomExporterAbsent leaves that job to HeadroomNetBirdDiscoverAbsent.
    netbirdDiscoverSelector: 'job="headroom_discover"',
    // The label that names the Network on discover's inventory series (headroom_netbird_*). discover writes
    // `network`; where networkLabel differs, the rules and panels copy it over (label_replace), unless the two
    // are the same because discover's scrape renames it (metric_relabel_configs).
    netbirdNetworkLabel: 'network',
    // An enabled router NetBird lists that no headroom `up` series carries, this long.
    netbirdRouterUnscrapedFor: '15m',
    // The inventory is stale past this age (seconds): five refreshes at discover's default 60s.
    netbirdInventoryMaxAgeSeconds: 300,
    netbirdInventoryStaleFor: '5m',
    netbirdDiscoverAbsentFor: '5m',
    // A peer's own --labels.network differs from the Network NetBird routes through it.
    networkLabelDisagreesFor: '15m',

    // --- Dashboards -----------------------------------------------------------------------------------------
    // The fleet dashboard's forecast panel: a shorter range, drawn sooner than the alert (same horizon).
    dashboardForecastRange: '7d',
    dashboardForecastMinPoints: 24,
    // A peer counts as active (not standby) above this 5-minute load in either direction, bytes/s (1 Mbit/s).
    dashboardActivePeerMinBytesPerSecond: 125000,
  },
}
