// Alerts: headroom.peer.alerts (at the Prometheus that scrapes the peers) and headroom.network.alerts (where
// all peers of a Network are visible: one site, or the central store's ruler; docs/alerts.md).
// Thresholds, `for:` durations, the job selector, the label names and the runbook links come from _config.
local utils = import 'lib/utils.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local f = utils.fmt(c),
    local net = c.networkLabel,
    local site = c.siteLabel,
    local nb = c.netbirdInventory,
    // With the NetBird inventory a Network is measured against its active peer's ceiling (rules.libsonnet).
    local netCeiling = 'network:headroom_ceiling_bytes_per_second:' + (if nb then 'active' else 'min'),
    local netCeilingWords = if nb then "the active peer's ceiling" else 'the smallest peer ceiling',
    // The headroom targets' `up`, without discover's own job when it matches headroomSelector too.
    local exporterUp = if nb then '(up{%(headroomSelector)s} unless on (job) up{%(netbirdDiscoverSelector)s})' % c
                       else 'up{%(headroomSelector)s}' % c,

    // A description is one line of text; descriptionLines (hidden) keeps the lines it is written in, which the
    // rendered YAML folds it at (`>-`). Override descriptionLines, or description alone (then folded by width).
    local runbook(alert) = c.runbookURLBase + '#' + std.asciiLower(alert),
    local placement = '(Network {{ $labels.%s }}, site {{ $labels.%s }})' % [net, site],

    // Templates that query one value for the alert's peer / Network.
    local peer = "{job='%s',instance='%s'}",
    local peerDir = "{job='%s',instance='%s',direction='%s'}",
    local netSel = '{' + net + "='%s'}",
    local netDir = '{' + net + "='%s',direction='%s'}",
    local args = ' $labels.job $labels.instance',
    local argsDir = ' $labels.job $labels.instance $labels.direction',
    local argsNet = ' $labels.' + net,
    local argsNetDir = ' $labels.' + net + ' $labels.direction',
    // {{ with printf "QUERY" ARGS | query }}{{ . | first | value SHOW }}{{ else }}ELSE{{ end }}
    local q(query, argv, show, orElse=null) =
      '{{ with printf "' + query + '"' + argv + ' | query }}{{ . | first | value' + show + ' }}'
      + (if orElse == null then '' else '{{ else }}' + orElse) + '{{ end }}',
    local gbps = ' | printf "%.2f"',
    local peerGbps(metric, orElse=null) = q(metric + peerDir + ' * 8 / 1e9', argsDir, gbps, orElse),
    local netGbps(metric) = q(metric + netDir + ' * 8 / 1e9', argsNetDir, gbps),
    local advice =
      'Exporter advice: {{ with printf "headroom_advice' + peer + ' == 1"' + args + ' | query }}'
      + '{{ range $i, $a := . | sortByLabel "advice" }}{{ if $i }}, {{ end }}{{ $a | label "advice" }}{{ end }}'
      + '{{ else }}unknown{{ end }}.',
    local datapathCores = q('headroom_datapath_cpu_cores' + peer, args, ' | printf "%.1f"', '?'),

    // The utilization both ceiling alerts compare: the direction alone, or with what the other direction
    // costs on the same CPU counted (only for a direction carrying traffic), whichever is larger.
    local ceilingExpr(threshold) = |||
      (
          instance:headroom_utilization:ratio_rate5m >= instance:headroom_load:ratio_avg5m
        or
          (
            instance:headroom_load:ratio_avg5m
            and on (job, instance, direction) (instance:headroom_tunnel_bytes:rate5m > %s)
          )
        or
          instance:headroom_utilization:ratio_rate5m
      )
      > %s
    ||| % [f.peerLoadMinBytesPerSecond, utils.num(threshold)],
    local ceilingDescription(forText, extra) = [
      'Peer {{ $labels.instance }} ' + placement + ' has carried',
      peerGbps('instance:headroom_tunnel_bytes:rate5m') + ' Gbps',
      '{{ $labels.direction }} against a ceiling of',
      peerGbps('instance:headroom_ceiling_bytes_per_second:max') + ' Gbps',
      '({{ $value | humanizePercentage }} of it, both directions counted, 5-minute rate) for ' + forText + extra + '.',
      'Room for ' + peerGbps('instance:headroom_spare_bytes_per_second:avg5m', '?') + ' Gbps',
      'more {{ $labels.direction }} now, counting what the other direction costs.',
      advice,
    ],

    // NetBird's inventory (headroom discover) against headroom's readings: where every peer's `up` and the
    // inventory meet (the Prometheus that scrapes discover and every peer, or the central store's ruler).
    local peerNet = '{{ $labels.netbird_peer }} (Network {{ $labels.%s }}, target {{ $labels.instance }})' % net,
    local netbirdAlerts = {
      name: 'headroom.netbird.alerts',
      rules: [
        {
          alert: 'HeadroomNetBirdRouterUnscraped',
          expr: |||
            network_router:headroom_netbird_router_metric:min
            unless on (instance) up{%(headroomSelector)s}
          ||| % f,
          'for': c.netbirdRouterUnscrapedFor,
          labels: { severity: 'critical' },
          annotations: {
            description: std.join(' ', self.descriptionLines),
            summary: 'NetBird routes Network {{ $labels.%s }} through {{ $labels.netbird_peer }}, which headroom does not scrape' % net,
            descriptionLines:: [
              'NetBird lists ' + peerNet + ' as an enabled routing peer (metric {{ $value }}),',
              'and for ' + utils.duration(c.netbirdRouterUnscrapedFor) + ' no headroom scrape job has carried that target.',
              'Its load, ceiling and failures are invisible to every other headroom alert.',
              "Scrape it: check the http_sd_configs relabelling that keeps or drops discover's targets, or install the exporter there.",
            ],
            runbook_url: runbook('HeadroomNetBirdRouterUnscraped'),
          },
        },
        {
          alert: 'HeadroomNetworkLabelDisagrees',
          expr: |||
            headroom_peer_info{exported_%(networkLabel)s!=""}
            unless on (job, instance, %(networkLabel)s)
            label_replace(
              max by (job, instance, exported_%(networkLabel)s) (headroom_peer_info{exported_%(networkLabel)s!=""}),
              "%(networkLabel)s", "$1", "exported_%(networkLabel)s", "(.*)"
            )
          ||| % f,
          'for': c.networkLabelDisagreesFor,
          labels: { severity: 'info' },
          annotations: {
            description: std.join(' ', self.descriptionLines),
            summary: '{{ $labels.instance }} calls its Network {{ $labels.exported_%s }}, NetBird routes {{ $labels.%s }} through it' % [net, net],
            descriptionLines:: [
              'The exporter on {{ $labels.instance }} (site {{ $labels.%s }}) is configured with' % site,
              '--labels.network={{ $labels.exported_%s }}, but NetBird routes Network {{ $labels.%s }} through this peer.' % [net, net],
              "headroom counts it in {{ $labels.%s }}, NetBird's name. Correct the peer's --labels.network, or drop the flag." % net,
            ],
            runbook_url: runbook('HeadroomNetworkLabelDisagrees'),
          },
        },
        {
          alert: 'HeadroomNetBirdInventoryStale',
          expr: 'max by (job, instance) (headroom_netbird_inventory_age_seconds) > %(netbirdInventoryMaxAgeSeconds)s' % f,
          'for': c.netbirdInventoryStaleFor,
          labels: { severity: 'warning' },
          annotations: {
            description: std.join(' ', self.descriptionLines),
            summary: "{{ $labels.instance }}: NetBird's inventory is {{ $value | humanizeDuration }} old",
            descriptionLines:: [
              'headroom discover on {{ $labels.instance }} last read the NetBird management API',
              '{{ $value | humanizeDuration }} ago. It keeps serving that list, so targets and routers NetBird gained',
              'or lost since are not seen. Failed API calls in the last 15 minutes:',
              '{{ range printf "sum by (endpoint, outcome) (increase(headroom_netbird_api_requests_total{job=\'%s\',instance=\'%s\',outcome!=\'ok\'}[15m])) > 0" $labels.job $labels.instance | query }}'
              + '{{ . | label "endpoint" }} {{ . | label "outcome" }} {{ . | value | printf "%.0f" }}; {{ else }}none; {{ end }}its log names',
              'the cause.',
            ],
            runbook_url: runbook('HeadroomNetBirdInventoryStale'),
          },
        },
        {
          alert: 'HeadroomNetBirdDiscoverAbsent',
          expr: |||
            up{%(netbirdDiscoverSelector)s} == 0
            or
            absent(up{%(netbirdDiscoverSelector)s})
          ||| % f,
          'for': c.netbirdDiscoverAbsentFor,
          labels: { severity: 'warning' },
          annotations: {
            description: std.join(' ', self.descriptionLines),
            summary: '{{ if $labels.instance }}{{ $labels.instance }}: headroom discover is not answering{{ else }}headroom discover is not being scraped{{ end }}',
            descriptionLines:: [
              '{{ if $labels.instance }}Prometheus has failed to scrape headroom discover on {{ $labels.instance }}',
              'for ' + utils.duration(c.netbirdDiscoverAbsentFor) + '.{{ else }}No series up{' + c.netbirdDiscoverSelector + '} exists.{{ end }}',
              "Without NetBird's inventory the NetBird rules see no router: no unscraped router is found and the",
              'standby count is unknown; Prometheus keeps the last SD target list it read.',
            ],
            runbook_url: runbook('HeadroomNetBirdDiscoverAbsent'),
          },
        },
      ],
    },

    groups+: [
      {
        name: 'headroom.peer.alerts',
        rules: [
          {
            alert: 'HeadroomPeerNearCeiling',
            expr: ceilingExpr(c.peerNearCeilingThreshold),
            'for': c.peerNearCeilingFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }} {{ $labels.direction }} at {{ $value | humanizePercentage }} of its ceiling',
              descriptionLines:: ceilingDescription(utils.duration(c.peerNearCeilingFor), ''),
              runbook_url: runbook('HeadroomPeerNearCeiling'),
            },
          },
          {
            alert: 'HeadroomPeerAtCeiling',
            expr: ceilingExpr(c.peerAtCeilingThreshold),
            'for': c.peerAtCeilingFor,
            labels: { severity: 'critical' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }} {{ $labels.direction }} at its ceiling ({{ $value | humanizePercentage }})',
              descriptionLines:: ceilingDescription(utils.duration(c.peerAtCeilingFor), '; users of this peer are queueing'),
              runbook_url: runbook('HeadroomPeerAtCeiling'),
            },
          },
          {
            alert: 'HeadroomPeerCpuBound',
            expr: 'instance:headroom_verdict:avg_over_time5m{verdict="cpu_bound"} > %(peerCpuBoundThreshold)s' % f,
            'for': c.peerCpuBoundFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }} {{ $labels.direction }} is CPU bound',
              descriptionLines:: [
                'Peer {{ $labels.instance }} ' + placement + ': the',
                '{{ $labels.direction }} verdict was cpu_bound for {{ $value | humanizePercentage }} of the last 5 minutes,',
                'sustained ' + utils.duration(c.peerCpuBoundFor) + '. The datapath uses',
                datapathCores,
                'of ' + q('headroom_cpus_online' + peer, args, ' | printf "%.0f"', '?'),
                'online cores at',
                peerGbps('instance:headroom_tunnel_bytes:rate5m') + ' Gbps',
                '(ceiling ' + peerGbps('instance:headroom_ceiling_bytes_per_second:max') + ' Gbps).',
                advice,
              ],
              runbook_url: runbook('HeadroomPeerCpuBound'),
            },
          },
          {
            alert: 'HeadroomPeerLinkBound',
            expr: 'instance:headroom_verdict:avg_over_time5m{verdict="link_bound"} > %(peerLinkBoundThreshold)s' % f,
            'for': c.peerLinkBoundFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }} {{ $labels.direction }} is bound by its network interface',
              descriptionLines:: [
                'Peer {{ $labels.instance }} ' + placement + ': the',
                '{{ $labels.direction }} verdict was link_bound for {{ $value | humanizePercentage }} of the last 5 minutes,',
                'sustained ' + utils.duration(c.peerLinkBoundFor) + '. The tunnel carries',
                peerGbps('instance:headroom_tunnel_bytes:rate5m') + ' Gbps',
                'on an underlay line rate of',
                q('headroom_underlay_line_rate_bytes_per_second' + peer + ' * 8 / 1e9', args, gbps, 'unknown') + ' Gbps',
                'while cores are left idle.',
                advice,
              ],
              runbook_url: runbook('HeadroomPeerLinkBound'),
            },
          },
          // wireguard-go flattens at ~6.8 Gbps download / 3.7-4.4 Gbps upload from 4 cores (MTU 1280); more
          // cores do not help. Fires near that plateau (90 % of 6.8 / 4.4 Gbps by default, as the daemon's
          // advice) or at 80 % of a userspace peer's own ceiling.
          {
            alert: 'HeadroomUserspacePlateau',
            expr: |||
              (
                  instance:headroom_tunnel_bytes:rate5m{direction="download"} * 8 / 1e9 > %s * %s
                or
                  instance:headroom_tunnel_bytes:rate5m{direction="upload"} * 8 / 1e9 > %s * %s
                or
                  instance:headroom_tunnel_bytes:rate5m * 8 / 1e9
                  > %s * instance:headroom_ceiling_bytes_per_second:max * 8 / 1e9
              )
              and on (job, instance) (headroom_datapath{datapath="userspace"} == 1)
            ||| % [
              utils.num(c.userspacePlateauShare),
              utils.gbps(c.userspacePlateauDownloadGbps),
              utils.num(c.userspacePlateauShare),
              utils.gbps(c.userspacePlateauUploadGbps),
              f.userspacePlateauCeilingRatio,
            ],
            'for': c.userspacePlateauFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }} runs userspace WireGuard near its plateau ({{ $value | printf "%.2f" }} Gbps {{ $labels.direction }})',
              descriptionLines:: [
                'Peer {{ $labels.instance }} ' + placement + ' moves',
                '{{ $value | printf "%.2f" }} Gbps {{ $labels.direction }} through the userspace datapath (wireguard-go)',
                'against a ceiling of',
                peerGbps('instance:headroom_ceiling_bytes_per_second:max') + ' Gbps,',
                'using ' + datapathCores + ' cores.',
                'Userspace flattens near ' + utils.gbps(c.userspacePlateauDownloadGbps) + ' Gbps download and '
                + utils.gbps(c.userspacePlateauUploadGbps) + ' Gbps upload whatever the core count;',
                'kernel WireGuard on the same box carries several times more.',
              ],
              runbook_url: runbook('HeadroomUserspacePlateau'),
            },
          },
          {
            alert: 'HeadroomSingleTunnelSaturatingCore',
            expr: 'instance:headroom_verdict:avg_over_time5m{verdict="single_tunnel_bound"} > %(singleTunnelBoundThreshold)s' % f,
            'for': c.singleTunnelBoundFor,
            labels: { severity: 'info' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }} {{ $labels.direction }}: one tunnel saturates a core',
              descriptionLines:: [
                'Peer {{ $labels.instance }} ' + placement + ': the',
                '{{ $labels.direction }} verdict was single_tunnel_bound for {{ $value | humanizePercentage }} of the last',
                '5 minutes, sustained ' + utils.duration(c.singleTunnelBoundFor) + '. The hottest core is',
                q('headroom_cpu_hottest_busy_ratio' + peer, args, ' | humanizePercentage', '?'),
                'busy while the peer as a whole carries',
                peerGbps('instance:headroom_tunnel_bytes:rate5m') + ' Gbps.',
                'One tunnel (one client device) is handled mostly on one core and tops out at a few Gbps;',
                'the other users of this peer are not limited by it. When the cause in /api/v1/status is',
                'relay_held, that tunnel goes through NetBird\'s relay instead: give the client a direct path.',
              ],
              runbook_url: runbook('HeadroomSingleTunnelSaturatingCore'),
            },
          },
          {
            alert: 'HeadroomTunnelDown',
            expr: 'instance:headroom_tunnel_up:max == 0',
            'for': c.tunnelDownFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }}: tunnel interface is gone',
              descriptionLines:: [
                'Peer {{ $labels.instance }} ' + placement + ' has had no tunnel',
                'interface for ' + utils.duration(c.tunnelDownFor) + ': NetBird is down or the interface was removed. The peer routes nothing;',
                'its Network relies on its standby peer.',
              ],
              runbook_url: runbook('HeadroomTunnelDown'),
            },
          },
          // Age of the newest sample at the moment Prometheus scraped it: timestamp() is the scrape time, so
          // the threshold does not depend on the scrape interval or on rule evaluation lag (only on clock skew).
          {
            alert: 'HeadroomSamplerStalled',
            expr: |||
              (
                timestamp(headroom_last_sample_timestamp_seconds) - headroom_last_sample_timestamp_seconds
              )
              %(join)s
              > %(samplerStalledSeconds)s
            ||| % (f { join: if nb then '* on (job, instance, %(networkLabel)s) group_left (%(siteLabel)s) headroom_peer_info' % c
                          else '* on (job, instance) group_left (%(networkLabel)s, %(siteLabel)s) headroom_peer_info' % c }),
            'for': c.samplerStalledFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ $labels.instance }}: headroom has not sampled for {{ $value | humanizeDuration }}',
              descriptionLines:: [
                'The exporter on {{ $labels.instance }} ' + placement + ' still',
                'answers scrapes but its last complete sample was {{ $value | humanizeDuration }} old when scraped.',
                'Its gauges and verdicts are frozen; nothing about this peer can be trusted until it samples again.',
              ],
              runbook_url: runbook('HeadroomSamplerStalled'),
            },
          },
          // The only rule that filters on the job: `up` is every target's, headroom_* series are headroom's.
          {
            alert: 'HeadroomExporterAbsent',
            expr: |||
              %(up)s == 0
              or
              absent(%(up)s)
            ||| % (f { up: exporterUp }),
            'for': c.exporterAbsentFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: '{{ if $labels.instance }}{{ $labels.instance }}: headroom exporter is not answering{{ else }}no headroom target is being scraped{{ end }}',
              descriptionLines:: [
                '{{ if $labels.instance }}Prometheus has failed to scrape {{ $labels.instance }} (job {{ $labels.job }})',
                'for ' + utils.duration(c.exporterAbsentFor) + '. Every other headroom alert for this peer is blind until it answers again.{{ else }}No',
                'series up{' + c.headroomSelector + '} exists: no headroom target is configured or discovered, so no',
                'headroom alert can fire.{{ end }}',
              ],
              runbook_url: runbook('HeadroomExporterAbsent'),
            },
          },
        ],
      },

      {
        name: 'headroom.network.alerts',
        rules: [
          {
            alert: 'HeadroomNetworkOverOnePeer',
            expr: 'network:headroom_utilization:ratio_rate5m > %(networkOverOnePeerThreshold)s' % f,
            'for': c.networkOverOnePeerFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: 'Network {{ $labels.%s }} {{ $labels.direction }} no longer fits one peer ({{ $value | humanizePercentage }})' % net,
              descriptionLines:: [
                'Network {{ $labels.%s }} carries' % net,
                netGbps('network:headroom_tunnel_bytes:rate5m') + ' Gbps',
                '{{ $labels.direction }} over its',
                q('network:headroom_peers_up:sum' + netSel, argsNet, ''),
                'peers up: {{ $value | humanizePercentage }} of ' + netCeilingWords,
                '(' + netGbps(netCeiling) + ' Gbps).',
                'Routing-peer HA is failover, never load balancing: when a peer fails, one peer carries all of it.',
                'Split the users over one more Network.',
              ],
              runbook_url: runbook('HeadroomNetworkOverOnePeer'),
            },
          },
          {
            alert: 'HeadroomNetworkNoStandby',
            // With the NetBird inventory: the routers NetBird has, not the exporters that answered (one that
            // does not answer is HeadroomExporterAbsent's or HeadroomNetBirdRouterUnscraped's).
            expr: if nb then 'network:headroom_netbird_routers:max < 2' else 'network:headroom_peers_up:sum == 1',
            'for': c.networkNoStandbyFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: 'Network {{ $labels.%s }} has no standby routing peer' % net,
              descriptionLines:: if nb then [
                'NetBird lists {{ $value }} enabled routing peer(s) for Network {{ $labels.%s }}' % net,
                '(' + q('network:headroom_peers_up:sum' + netSel, argsNet, '', '0') + ' up in headroom) for ' + utils.duration(c.networkNoStandbyFor) + '.',
                'One failure cuts its users off: add a second routing peer to the Network in NetBird.',
              ] else [
                'Network {{ $labels.%s }} has had {{ $value }} routing peer up (of' % net,
                q('network:headroom_peers:count' + netSel, argsNet, ''),
                'seen in the last ' + utils.durationLast(c.networkPeersSeenWindow) + ') for ' + utils.duration(c.networkNoStandbyFor) + '. One more failure cuts its users off.',
              ],
              runbook_url: runbook('HeadroomNetworkNoStandby'),
            },
          },
          {
            alert: 'HeadroomNetworkNoStandby',
            expr: 'network:headroom_peers_up:sum == 0',
            'for': c.networkNoPeerUpFor,
            labels: { severity: 'critical' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: 'Network {{ $labels.%s }} has no routing peer up' % net,
              descriptionLines:: [
                'Network {{ $labels.%s }} has had no routing peer up (of' % net,
                q('network:headroom_peers:count' + netSel, argsNet, ''),
                'seen in the last ' + utils.durationLast(c.networkPeersSeenWindow) + ') for ' + utils.duration(c.networkNoPeerUpFor) + ': its users cannot reach the resources it routes.',
              ],
              runbook_url: runbook('HeadroomNetworkNoStandby'),
            },
          },
          // Straight line through 14 days (forecastRange) of the rolling daily peak (1h steps), 28 days
          // (forecastHorizonDays) ahead, against one peer's ceiling. Needs 7 days of history (168 hourly
          // points, forecastMinPoints) so that a young series does not extrapolate noise.
          {
            alert: 'HeadroomNetworkCeilingForecast',
            expr: |||
              (
                predict_linear(network:headroom_tunnel_bytes:max_over_time1d_rate5m[%(forecastRange)s:1h], %(forecastHorizonDays)s * 86400) * 8 / 1e9
                > on (%(networkLabel)s, direction)
                %(netCeiling)s * 8 / 1e9
              )
              and on (%(networkLabel)s, direction)
              (count_over_time(network:headroom_tunnel_bytes:max_over_time1d_rate5m[%(forecastRange)s:1h]) >= %(forecastMinPoints)s)
            ||| % (f { netCeiling: netCeiling }),
            'for': c.forecastFor,
            labels: { severity: 'warning' },
            annotations: {
              description: std.join(' ', self.descriptionLines),
              summary: "Network {{ $labels.%s }} {{ $labels.direction }} daily peak will cross one peer's ceiling within %s" % [net, utils.days(c.forecastHorizonDays)],
              descriptionLines:: [
                'The daily peak of Network {{ $labels.%s }} ({{ $labels.direction }}) is' % net,
                netGbps('network:headroom_tunnel_bytes:max_over_time1d_rate5m') + ' Gbps',
                'and its ' + utils.durationAdjective(c.forecastRange) + ' trend reaches {{ $value | printf "%.2f" }} Gbps in ' + f.forecastHorizonDays + ' days, past ' + netCeilingWords + ' of',
                netGbps(netCeiling) + ' Gbps.',
                'Plan one more Network (two more peers) before then.',
              ],
              runbook_url: runbook('HeadroomNetworkCeilingForecast'),
            },
          },
        ],
      },
    ] + (if nb then [netbirdAlerts] else []),
  },
}
