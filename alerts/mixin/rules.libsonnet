// Recording rules: headroom.peer.rules (per peer) and headroom.network.rules (per Network and per site).
//
// Naming: `level:metric:operations` (level = the labels kept: instance, network, site). Units: bytes and
// bytes/s in series. The 5m / 1d windows are part of the recorded names and are not configurable.
//
// network and site come ONLY from the exporter's headroom_peer_info. The per-peer rules (`instance:*`) join
// them in once, with `* on (job, instance) group_left (network, site) headroom_peer_info`, so every recording
// rule and alert downstream carries them. The exporter must always expose headroom_peer_info (with empty
// values when unset); a peer without it is invisible here.
local utils = import 'lib/utils.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    local nb = c.netbirdInventory,
    local inv = utils.netbirdInventory(c),
    // The labels that key one peer: with the NetBird inventory, `network` is a target label (relabelled from
    // discover's SD) and a box that routes two Networks is scraped once per Network, so it is two peers.
    local peerKey = if nb then 'job, instance, %(networkLabel)s' % c else 'job, instance',
    // `* on (job, instance) group_left (network, site) headroom_peer_info`
    local peerInfo =
      if nb then '* on (%s) group_left (%s) headroom_peer_info' % [peerKey, c.siteLabel]
      else '* on (job, instance) group_left (%(networkLabel)s, %(siteLabel)s) headroom_peer_info' % c,
    // The headroom targets' `up`: a router NetBird lists is scraped when one carries its target as instance.
    local up = 'up{%(headroomSelector)s}' % c,

    groups+: [
      // Per peer. One join with headroom_peer_info per rule; everything downstream inherits network/site.
      {
        name: 'headroom.peer.rules',
        rules: [
          // Sustained tunnel load, bytes/s, per direction (the counter, not the 1 s gauge: a burst does not
          // move it).
          {
            record: 'instance:headroom_tunnel_bytes:rate5m',
            expr: |||
              sum by (%s, direction) (rate(headroom_tunnel_bytes_total[5m]))
              %s
            ||| % [peerKey, peerInfo],
          },
          // The ceiling in use (profile, config or reference table), bytes/s, per direction.
          {
            record: 'instance:headroom_ceiling_bytes_per_second:max',
            expr: |||
              max by (%s, direction) (headroom_ceiling_bytes_per_second)
              %s
            ||| % [peerKey, peerInfo],
          },
          // Sustained utilization of the peer's own ceiling, 0..1 (a peer without a ceiling has no series).
          {
            record: 'instance:headroom_utilization:ratio_rate5m',
            expr: |||
              instance:headroom_tunnel_bytes:rate5m
              / (instance:headroom_ceiling_bytes_per_second:max > 0)
            |||,
          },
          // Share of the last 5 minutes each limiting verdict held, per direction (0..1). Tolerates a flapping
          // verdict. `headroom` (nothing limits) and `no_datapath` (no tunnel: HeadroomTunnelDown says it) are
          // left out: nothing alerts on them and they are two fifths of the cost.
          {
            record: 'instance:headroom_verdict:avg_over_time5m',
            expr: |||
              avg_over_time(headroom_verdict{verdict!~"headroom|no_datapath"}[5m])
              %s
            ||| % peerInfo,
          },
          // How much more of each direction the peer can carry, bytes/s, averaged over 5 minutes: the
          // exporter's spare counts what the other direction costs on the same CPU (absent without a tunnel
          // datapath).
          {
            record: 'instance:headroom_spare_bytes_per_second:avg5m',
            expr: |||
              max by (%s, direction) (avg_over_time(headroom_spare_bytes_per_second[5m]))
              %s
            ||| % [peerKey, peerInfo],
          },
          // Share of the direction's ceiling taken, both directions counted (1 - spare / ceiling), 0..1: 6.6 of
          // 7 Gbps download plus 0.93 of 4 Gbps upload on one 4-core CPU reads 1 for upload too, not its own
          // 23 %.
          {
            record: 'instance:headroom_load:ratio_avg5m',
            expr: |||
              1 - instance:headroom_spare_bytes_per_second:avg5m
              / (instance:headroom_ceiling_bytes_per_second:max > 0)
            |||,
          },
          // 1 while the tunnel interface exists, 0 when it is gone; absent while the exporter is not scraped.
          {
            record: 'instance:headroom_tunnel_up:max',
            expr: |||
              max by (%s) (headroom_tunnel_up)
              %s
            ||| % [peerKey, peerInfo],
          },
        ],
      },

      // Per Network and per site, from the per-peer series only. Needs every peer of a Network in one place
      // (one site, or the central store's ruler: docs/alerts.md).
      {
        name: 'headroom.network.rules',
        rules: [
          // Peers of each Network seen in the last hour: remembers a Network whose peers all stopped
          // answering.
          {
            record: 'network:headroom_peers:count',
            expr: |||
              count by (%(networkLabel)s) (max by (%(networkLabel)s, job, instance) (last_over_time(headroom_peer_info[%(networkPeersSeenWindow)s])))
            ||| % c,
          },
          // Peers up (scraped, tunnel interface present) per Network; 0 for a Network seen in the last hour
          // whose peers are all gone.
          {
            record: 'network:headroom_peers_up:sum',
            expr: |||
              sum by (%(networkLabel)s) (instance:headroom_tunnel_up:max)
              or on (%(networkLabel)s) (network:headroom_peers:count * 0)
            ||| % c,
          },
          // Load of the whole Network, bytes/s, per direction.
          {
            record: 'network:headroom_tunnel_bytes:rate5m',
            expr: 'sum by (%(networkLabel)s, direction) (instance:headroom_tunnel_bytes:rate5m)' % c,
          },
          // The smallest ceiling among the Network's peers: HA is failover or nearest-peer, never load
          // balancing, so the whole Network must fit on any one of its peers.
          {
            record: 'network:headroom_ceiling_bytes_per_second:min',
            expr: 'min by (%(networkLabel)s, direction) (instance:headroom_ceiling_bytes_per_second:max)' % c,
          },
        ] + (if !nb then [] else [
          // Every enabled router NetBird lists, keyed by the headroom target that should read it (instance =
          // the SD target discover serves); the value is its NetBird metric (lowest wins).
          {
            record: 'network_router:headroom_netbird_router_metric:min',
            expr: |||
              min by (%(net)s, netbird_peer, instance) (
                label_replace(%(metric)s, "instance", "$1", "instance_target", "(.*)")
                and on (%(net)s, netbird_peer, instance_target) (%(enabled)s == 1)
              )
            ||| % { net: c.networkLabel, metric: inv('headroom_netbird_router_metric'), enabled: inv('headroom_netbird_router_enabled') },
          },
          // 1 while the router's headroom target answers its scrapes, 0 when it fails or no headroom job
          // carries it (HeadroomNetBirdRouterUnscraped).
          {
            record: 'network_router:headroom_netbird_router_up:max',
            expr: |||
              max by (%s, netbird_peer, instance) (
                network_router:headroom_netbird_router_metric:min * 0
                + on (instance) group_left () max by (instance) (%s)
              )
              or
              network_router:headroom_netbird_router_metric:min * 0
            ||| % [c.networkLabel, up],
          },
          // The active router of each Network, as NetBird picks it: the lowest metric among the routers whose
          // peer NetBird sees connected and whose exporter answers. The value is its metric.
          {
            record: 'network_router:headroom_netbird_active:min',
            expr: |||
              (
                network_router:headroom_netbird_router_metric:min
                and network_router:headroom_netbird_router_up:max == 1
                and on (%(net)s, netbird_peer) (max by (%(net)s, netbird_peer) (%(connected)s) == 1)
              )
              == on (%(net)s) group_left ()
              min by (%(net)s) (
                network_router:headroom_netbird_router_metric:min
                and network_router:headroom_netbird_router_up:max == 1
                and on (%(net)s, netbird_peer) (max by (%(net)s, netbird_peer) (%(connected)s) == 1)
              )
            ||| % { net: c.networkLabel, connected: inv('headroom_netbird_peer_connected') },
          },
          // Enabled routers NetBird lists per Network (the standby count), whether headroom reads them or not.
          {
            record: 'network:headroom_netbird_routers:max',
            expr: 'max by (%s) (%s)' % [c.networkLabel, inv('headroom_netbird_network_routers')],
          },
          // The ceiling of the Network's active peer (the smaller one if two share the lowest metric).
          {
            record: 'network:headroom_ceiling_bytes_per_second:active',
            expr: |||
              min by (%(networkLabel)s, direction) (
                instance:headroom_ceiling_bytes_per_second:max
                * on (instance, %(networkLabel)s) group_left () (network_router:headroom_netbird_active:min * 0 + 1)
              )
            ||| % c,
          },
        ]) + [
          // Network load against ONE peer's ceiling (with the NetBird inventory: the active peer's). Above 1 it
          // no longer fits one peer.
          {
            record: 'network:headroom_utilization:ratio_rate5m',
            expr: |||
              network:headroom_tunnel_bytes:rate5m
              / (network:headroom_ceiling_bytes_per_second:%s > 0)
            ||| % (if nb then 'active' else 'min'),
          },
          // Rolling daily peak of the Network's load, the input of the growth forecast.
          {
            record: 'network:headroom_tunnel_bytes:max_over_time1d_rate5m',
            expr: 'max_over_time(network:headroom_tunnel_bytes:rate5m[1d])',
          },
          // Per site.
          {
            record: 'site:headroom_tunnel_bytes:rate5m',
            expr: 'sum by (%(siteLabel)s, direction) (instance:headroom_tunnel_bytes:rate5m)' % c,
          },
          // Installed capacity of the site (every peer's ceiling, standbys included).
          {
            record: 'site:headroom_ceiling_bytes_per_second:sum',
            expr: 'sum by (%(siteLabel)s, direction) (instance:headroom_ceiling_bytes_per_second:max)' % c,
          },
          // Share of the installed capacity in use; with one standby per Network, plan for at most ~0.5.
          {
            record: 'site:headroom_utilization:ratio_rate5m',
            expr: |||
              site:headroom_tunnel_bytes:rate5m
              / (site:headroom_ceiling_bytes_per_second:sum > 0)
            |||,
          },
          {
            record: 'site:headroom_peers_up:sum',
            expr: 'sum by (%(siteLabel)s) (instance:headroom_tunnel_up:max)' % c,
          },
        ],
      },
    ],
  },
}
