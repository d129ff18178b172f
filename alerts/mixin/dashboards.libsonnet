// Grafana dashboards: headroom-peer.json (one routing peer) and headroom-fleet.json (every peer: Networks,
// sites, forecast). Grafana 10 and 11, JSON model schemaVersion 39; render.sh writes them to dashboards/.
//
// They read the recording rules of rules.libsonnet, so the Prometheus behind them must load those rules.
// Every query takes the data source from the `datasource` variable (no pinned uid: `ds` below) and filters
// by the `site`, `network` and (peer) `instance` variables, read from headroom_peer_info. The variable names
// stay `site` and `network` whatever the label names (_config.networkLabel / siteLabel): links between the
// dashboards carry them as var-site / var-network. The uids are stable: links, bookmarks and provisioning use
// them (exporter/src/test/dashboards/check_dashboards.py checks them).
//
// No query filters on the job: headroom_* series come only from headroom (as in the rules, only the `up`
// selector of HeadroomExporterAbsent uses _config.headroomSelector).
//
// Editing: change the panel here and run alerts/mixin/render.sh. A panel changed in Grafana and exported
// (without "Export for sharing externally", which pins a data source) has to be carried back into this file
// by hand; the semantic diff (alerts/mixin/tests/semantic_diff.py) shows what differs.
local utils = import 'lib/utils.libsonnet';

{
  grafanaDashboards+:: {
    local c = $._config,
    local f = utils.fmt(c),
    local ds = { type: 'prometheus', uid: '${datasource}' },
    // A multi-line query or text, without the newline a text block ends with.
    local block(s) = std.rstripChars(s, '\n'),

    'headroom-peer.json': {
      uid: 'headroom-peer',
      title: 'headroom / peer',
      description: 'One NetBird routing peer: throughput against its ceiling per direction, what limits it, what to do, and the CPU and packets behind it.',
      tags: ['headroom', 'netbird', 'wireguard'],
      editable: true,
      graphTooltip: 1,
      fiscalYearStartMonth: 0,
      liveNow: false,
      refresh: '30s',
      schemaVersion: 39,
      version: 1,
      weekStart: '',
      time: {
        from: 'now-6h',
        to: 'now',
      },
      timepicker: {},
      timezone: '',
      annotations: {
        list: [
          {
            builtIn: 1,
            datasource: {
              type: 'grafana',
              uid: '-- Grafana --',
            },
            enable: true,
            hide: true,
            iconColor: 'rgba(0, 211, 255, 1)',
            name: 'Annotations & Alerts',
            type: 'dashboard',
          },
        ],
      },
      links: [
        {
          title: 'Fleet',
          type: 'link',
          url: '/d/headroom-fleet',
          icon: 'dashboard',
          includeVars: true,
          keepTime: true,
          targetBlank: false,
          asDropdown: false,
          tags: [],
          tooltip: 'Open the Fleet dashboard with the same data source, site and Network',
        },
        {
          title: 'Runbooks',
          type: 'link',
          url: '%(runbookURLBase)s' % f,
          icon: 'doc',
          includeVars: false,
          keepTime: false,
          targetBlank: true,
          asDropdown: false,
          tags: [],
          tooltip: 'What each headroom alert means and what to do (docs/runbooks.md)',
        },
        {
          title: 'Metrics',
          type: 'link',
          url: '%(docsURLBase)s/metrics.md' % f,
          icon: 'info',
          includeVars: false,
          keepTime: false,
          targetBlank: true,
          asDropdown: false,
          tags: [],
          tooltip: 'Every headroom_* series (docs/metrics.md)',
        },
      ],
      templating: {
        list: [
          {
            name: 'datasource',
            label: 'Data source',
            type: 'datasource',
            query: 'prometheus',
            current: {},
            hide: 0,
            refresh: 1,
            regex: '',
            options: [],
            includeAll: false,
            multi: false,
          },
          {
            name: 'site',
            label: 'Site',
            description: '',
            type: 'query',
            datasource: ds,
            definition: 'label_values(headroom_peer_info, %(siteLabel)s)' % f,
            query: {
              qryType: 1,
              query: 'label_values(headroom_peer_info, %(siteLabel)s)' % f,
              refId: 'PrometheusVariableQueryEditor-VariableQuery',
            },
            refresh: 2,
            sort: 1,
            regex: '',
            hide: 0,
            current: {},
            options: [],
            multi: true,
            includeAll: true,
            allValue: '.*',
          },
          {
            name: 'network',
            label: 'Network',
            description: '',
            type: 'query',
            datasource: ds,
            definition: 'label_values(headroom_peer_info{%(siteLabel)s=~"$site"}, %(networkLabel)s)' % f,
            query: {
              qryType: 1,
              query: 'label_values(headroom_peer_info{%(siteLabel)s=~"$site"}, %(networkLabel)s)' % f,
              refId: 'PrometheusVariableQueryEditor-VariableQuery',
            },
            refresh: 2,
            sort: 1,
            regex: '',
            hide: 0,
            current: {},
            options: [],
            multi: true,
            includeAll: true,
            allValue: '.*',
          },
          {
            name: 'instance',
            label: 'Peer',
            description: '',
            type: 'query',
            datasource: ds,
            definition: 'label_values(headroom_peer_info{%(siteLabel)s=~"$site", %(networkLabel)s=~"$network"}, instance)' % f,
            query: {
              qryType: 1,
              query: 'label_values(headroom_peer_info{%(siteLabel)s=~"$site", %(networkLabel)s=~"$network"}, instance)' % f,
              refId: 'PrometheusVariableQueryEditor-VariableQuery',
            },
            refresh: 2,
            sort: 1,
            regex: '',
            hide: 0,
            current: {},
            options: [],
            multi: false,
            includeAll: false,
          },
        ],
      },
      panels: [
        {
          type: 'row',
          title: 'Peer',
          id: 1,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 1,
          },
          panels: [],
        },
        {
          type: 'stat',
          title: 'Datapath',
          description: 'Which WireGuard datapath runs the tunnel (headroom_datapath): kernel, userspace (wireguard-go, NetBird without the kernel module) or absent (no tunnel interface).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_datapath{instance="$instance"} == 1',
              legendFormat: '{{datapath}}',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [
                {
                  type: 'value',
                  options: {
                    '1': {
                      index: 0,
                      color: 'blue',
                    },
                  },
                },
              ],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 2,
          gridPos: {
            h: 4,
            w: 3,
            x: 0,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Tunnel MTU',
          description: "Tunnel MTU in bytes (headroom_tunnel_mtu_bytes). NetBird's default is 1280; jumbo tunnels need a jumbo underlay (see the raise_mtu advice).",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_tunnel_mtu_bytes{instance="$instance"}',
              legendFormat: 'tunnel',
              range: false,
              instant: true,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_underlay_mtu_bytes{instance="$instance"}',
              legendFormat: 'underlay',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value_and_name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 3,
          gridPos: {
            h: 4,
            w: 4,
            x: 3,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Cores online',
          description: 'Online cores (headroom_cpus_online) and cores at or above the saturation threshold (headroom_cpus_saturated, --cpu.saturation, default 90 % busy).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_cpus_online{instance="$instance"}',
              legendFormat: 'online',
              range: false,
              instant: true,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_cpus_saturated{instance="$instance"}',
              legendFormat: 'saturated',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'suffix: cores',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              decimals: 0,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value_and_name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 4,
          gridPos: {
            h: 4,
            w: 4,
            x: 7,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Ceiling source',
          description: "Where each direction's ceiling comes from (headroom_ceiling_source): profile (measured on this peer by `headroom profile`), config (--ceiling.*), observed (learned from this peer's own saturation, kept under --path.state), cost (from what each packet costs this peer's CPU, learned from ordinary traffic and kept beside it) or reference (NetBird's sizing table for this datapath, core count and MTU).",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_ceiling_source{instance="$instance"} == 1',
              legendFormat: '{{direction}}: {{source}}',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [
                {
                  type: 'value',
                  options: {
                    '1': {
                      index: 0,
                      color: 'purple',
                    },
                  },
                },
              ],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 5,
          gridPos: {
            h: 4,
            w: 5,
            x: 11,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Ceiling',
          description: 'The ceiling in use per direction, in bits per second (headroom_ceiling_bytes_per_second x 8): what this peer can carry in that direction.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction) (headroom_ceiling_bytes_per_second{instance="$instance"}) * 8',
              legendFormat: '{{direction}}',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value_and_name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 6,
          gridPos: {
            h: 4,
            w: 4,
            x: 16,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Placement',
          description: 'Network and site this peer belongs to (headroom_peer_info, --labels.network and --labels.site).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_peer_info{instance="$instance"}',
              legendFormat: '{{%(networkLabel)s}} / {{%(siteLabel)s}}' % f,
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [
                {
                  type: 'value',
                  options: {
                    '1': {
                      index: 0,
                      color: 'text',
                    },
                  },
                },
              ],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 7,
          gridPos: {
            h: 4,
            w: 4,
            x: 20,
            y: 2,
          },
        },
        {
          type: 'row',
          title: 'Throughput against the ceiling',
          id: 8,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 6,
          },
          panels: [],
        },
        {
          type: 'timeseries',
          title: 'Tunnel throughput vs ceiling',
          description: 'Inner IP traffic across the tunnel in bits per second, per direction, from rate(headroom_tunnel_bytes_total[$__rate_interval]) x 8, against the ceiling in use (dashed). Download = users pull (peer encrypts, tunnel TX); upload = users push (peer decrypts, tunnel RX).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'sum by (direction) (rate(headroom_tunnel_bytes_total{instance="$instance"}[$__rate_interval])) * 8',
              legendFormat: '{{direction}}',
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction) (headroom_ceiling_bytes_per_second{instance="$instance"}) * 8',
              legendFormat: '{{direction}} ceiling',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
            },
            overrides: [
              {
                matcher: {
                  id: 'byRegexp',
                  options: '.*ceiling$',
                },
                properties: [
                  {
                    id: 'custom.lineStyle',
                    value: {
                      fill: 'dash',
                      dash: [10, 10],
                    },
                  },
                  {
                    id: 'custom.fillOpacity',
                    value: 0,
                  },
                  {
                    id: 'custom.lineWidth',
                    value: 2,
                  },
                ],
              },
            ],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 9,
          gridPos: {
            h: 8,
            w: 10,
            x: 0,
            y: 7,
          },
        },
        {
          type: 'timeseries',
          title: 'Room for more now (spare)',
          description: "How much more of each direction the peer can carry now, given what the other direction costs (headroom_spare_bytes_per_second, and its 5-minute mean instance:headroom_spare_bytes_per_second:avg5m): the ceiling fractions add on one CPU, the busy cores count when they say more, and each direction's own ceiling and the underlay's free line rate bound it (docs/verdict.md, Spare capacity). Absent without a tunnel datapath.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction) (headroom_spare_bytes_per_second{instance="$instance"}) * 8',
              legendFormat: '{{direction}} now',
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction) (instance:headroom_spare_bytes_per_second:avg5m{instance="$instance"}) * 8',
              legendFormat: '{{direction}} 5m mean',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              min: 0,
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
              },
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['min', 'mean', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 29,
          gridPos: {
            h: 8,
            w: 7,
            x: 10,
            y: 7,
          },
        },
        {
          type: 'gauge',
          title: 'Utilization of the ceiling (5m): own and both directions counted',
          description: 'Sustained load over the ceiling in use, per direction: the direction alone (recording rule instance:headroom_utilization:ratio_rate5m) and with what the other direction costs on the same CPU counted (instance:headroom_load:ratio_avg5m, 1 - spare / ceiling). HeadroomPeerNearCeiling (> %s %% for %s) and HeadroomPeerAtCeiling (> %s %% for %s) fire on the larger of the two for a direction carrying traffic.' % [utils.pct(c.peerNearCeilingThreshold), c.peerNearCeilingFor, utils.pct(c.peerAtCeilingThreshold), c.peerAtCeilingFor],
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'instance:headroom_utilization:ratio_rate5m{instance="$instance"}',
              legendFormat: '{{direction}} alone',
              range: false,
              instant: true,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'instance:headroom_load:ratio_avg5m{instance="$instance"}',
              legendFormat: '{{direction}} both counted',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              min: 0,
              max: 1,
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                  {
                    color: 'orange',
                    value: c.peerNearCeilingThreshold,
                  },
                  {
                    color: 'red',
                    value: c.peerAtCeilingThreshold,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            showThresholdLabels: false,
            showThresholdMarkers: true,
          },
          id: 10,
          gridPos: {
            h: 8,
            w: 7,
            x: 17,
            y: 7,
          },
        },
        {
          type: 'timeseries',
          title: 'One-second peaks',
          description: 'Highest one-sample rate per direction, in bits per second (headroom_tunnel_peak_throughput_bytes_per_second x 8): the peak over --sample.peak-window (default 5m, window=sliding), the same for every scraper. Bursts that a rate over the scrape interval averages away show here.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction, window) (headroom_tunnel_peak_throughput_bytes_per_second{instance="$instance"}) * 8',
              legendFormat: '{{direction}} peak ({{window}})',
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction) (headroom_ceiling_bytes_per_second{instance="$instance"}) * 8',
              legendFormat: '{{direction}} ceiling',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 0,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
            },
            overrides: [
              {
                matcher: {
                  id: 'byRegexp',
                  options: '.*ceiling$',
                },
                properties: [
                  {
                    id: 'custom.lineStyle',
                    value: {
                      fill: 'dash',
                      dash: [10, 10],
                    },
                  },
                  {
                    id: 'custom.fillOpacity',
                    value: 0,
                  },
                  {
                    id: 'custom.lineWidth',
                    value: 2,
                  },
                ],
              },
            ],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 11,
          gridPos: {
            h: 8,
            w: 12,
            x: 0,
            y: 15,
          },
        },
        {
          type: 'timeseries',
          title: 'Utilization now and sliding peak',
          description: 'Throughput over the ceiling per direction as the exporter sees it each sample (headroom_utilization_ratio) and the sliding-window peak over the ceiling (headroom_peak_utilization_ratio). Lines at %s %% and %s %% match the ceiling alerts.' % [utils.pct(c.peerNearCeilingThreshold), utils.pct(c.peerAtCeilingThreshold)],
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction) (headroom_utilization_ratio{instance="$instance"})',
              legendFormat: '{{direction}} now',
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'max by (direction) (headroom_peak_utilization_ratio{instance="$instance"})',
              legendFormat: '{{direction}} peak',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 0,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'line+area',
                },
              },
              min: 0,
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                  {
                    color: 'orange',
                    value: c.peerNearCeilingThreshold,
                  },
                  {
                    color: 'red',
                    value: c.peerAtCeilingThreshold,
                  },
                ],
              },
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 12,
          gridPos: {
            h: 8,
            w: 12,
            x: 12,
            y: 15,
          },
        },
        {
          type: 'row',
          title: 'Verdict and advice',
          id: 13,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 23,
          },
          panels: [],
        },
        {
          type: 'state-timeline',
          title: 'Verdict over time',
          description: 'What limits each direction, sample by sample (headroom_verdict, a StateSet encoded as 1 headroom, 2 link_bound, 3 cpu_bound, 4 single_tunnel_bound, 5 no_datapath: no tunnel, nothing judged). cpu_bound also covers the direction that shares a CPU the other direction fills (cause cpu_shared on / and /api/v1/status). Verdicts latch after 3 samples in a row, so they do not flap; see docs/verdict.md.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                max by (direction) (
                headroom_verdict{instance="$instance", verdict="headroom"} * 1
                  or headroom_verdict{instance="$instance", verdict="link_bound"} * 2
                  or headroom_verdict{instance="$instance", verdict="cpu_bound"} * 3
                  or headroom_verdict{instance="$instance", verdict="single_tunnel_bound"} * 4
                  or headroom_verdict{instance="$instance", verdict="no_datapath"} * 5
                )
              |||),
              legendFormat: '{{direction}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              color: {
                mode: 'thresholds',
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [
                {
                  type: 'value',
                  options: {
                    '1': {
                      text: 'headroom',
                      color: 'green',
                      index: 0,
                    },
                    '2': {
                      text: 'link_bound',
                      color: 'orange',
                      index: 1,
                    },
                    '3': {
                      text: 'cpu_bound',
                      color: 'red',
                      index: 2,
                    },
                    '4': {
                      text: 'single_tunnel_bound',
                      color: 'yellow',
                      index: 3,
                    },
                    '0': {
                      text: 'no verdict',
                      color: 'text',
                      index: 4,
                    },
                    '5': {
                      text: 'no_datapath',
                      color: 'purple',
                      index: 5,
                    },
                  },
                },
              ],
              custom: {
                fillOpacity: 80,
                lineWidth: 0,
              },
            },
            overrides: [],
          },
          options: {
            mergeValues: true,
            showValue: 'auto',
            alignValue: 'left',
            rowHeight: 0.8,
            legend: {
              displayMode: 'list',
              placement: 'bottom',
              showLegend: true,
            },
            tooltip: {
              mode: 'single',
              sort: 'none',
            },
          },
          id: 14,
          gridPos: {
            h: 6,
            w: 14,
            x: 0,
            y: 24,
          },
        },
        {
          type: 'stat',
          title: 'Advice',
          description: "What to do about this peer (headroom_advice == 1; several can hold at once). The reason in words and numbers is on the peer's status page (click a value) and in /api/v1/status.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_advice{instance="$instance"} == 1',
              legendFormat: '{{advice}}',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [
                {
                  type: 'value',
                  options: {
                    '1': {
                      index: 0,
                      color: 'blue',
                    },
                  },
                },
              ],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              links: [
                {
                  title: 'Status page of ${instance} (the reason in words)',
                  url: 'http://${instance}/',
                  targetBlank: true,
                },
              ],
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 15,
          gridPos: {
            h: 6,
            w: 5,
            x: 14,
            y: 24,
          },
        },
        {
          type: 'text',
          title: 'Why',
          description: 'Where the reason behind the advice is written out.',
          options: {
            mode: 'markdown',
            content: block(|||
              The exporter says **why** on its status page: [http://$instance/](http://$instance/) (JSON: [/api/v1/status](http://$instance/api/v1/status)).

              Verdicts and advice are explained in [docs/verdict.md](%(docsURLBase)s/verdict.md); alerts in [docs/runbooks.md](%(runbookURLBase)s).
            ||| % f),
            code: {
              language: 'plaintext',
              showLineNumbers: false,
              showMiniMap: false,
            },
          },
          id: 16,
          gridPos: {
            h: 6,
            w: 5,
            x: 19,
            y: 24,
          },
        },
        {
          type: 'row',
          title: 'CPU',
          id: 17,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 30,
          },
          panels: [],
        },
        {
          type: 'heatmap',
          title: 'Per-core busy',
          description: 'Non-idle share of each core (rows = CPU ids, idle and iowait count as not busy), from rate(headroom_cpu_seconds_total[$__rate_interval]) by mode. One hot row among cool ones is one tunnel on one core; all rows hot is CPU bound.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                1 - sum by (cpu) (rate(headroom_cpu_seconds_total{instance="$instance", mode=~"idle|iowait"}[$__rate_interval]))
                / sum by (cpu) (rate(headroom_cpu_seconds_total{instance="$instance"}[$__rate_interval]))
              |||),
              legendFormat: '{{cpu}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              min: 0,
              max: 1,
              custom: {
                scaleDistribution: {
                  type: 'linear',
                },
                hideFrom: {
                  legend: false,
                  tooltip: false,
                  viz: false,
                },
              },
            },
            overrides: [],
          },
          options: {
            calculate: false,
            cellGap: 1,
            cellValues: {
              unit: 'percentunit',
            },
            color: {
              mode: 'scheme',
              scheme: 'Oranges',
              fill: 'dark-orange',
              scale: 'exponential',
              exponent: 0.5,
              steps: 64,
              reverse: false,
              min: 0,
              max: 1,
            },
            rowsFrame: {
              layout: 'auto',
              value: 'busy',
            },
            yAxis: {
              axisPlacement: 'left',
              reverse: false,
              unit: 'none',
              axisLabel: 'cpu',
            },
            legend: {
              show: true,
            },
            tooltip: {
              mode: 'single',
              yHistogram: false,
              showColorScale: true,
            },
            exemplars: {
              color: 'rgba(255,0,255,0.7)',
            },
            filterValues: {
              le: 1e-09,
            },
          },
          id: 18,
          gridPos: {
            h: 8,
            w: 12,
            x: 0,
            y: 31,
          },
        },
        {
          type: 'heatmap',
          title: 'Per-core softirq',
          description: 'Share of each core spent in softirq (kernel WireGuard receive and much of its crypto run there), from rate(headroom_cpu_seconds_total{mode="softirq"}[$__rate_interval]).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'sum by (cpu) (rate(headroom_cpu_seconds_total{instance="$instance", mode="softirq"}[$__rate_interval]))',
              legendFormat: '{{cpu}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              min: 0,
              max: 1,
              custom: {
                scaleDistribution: {
                  type: 'linear',
                },
                hideFrom: {
                  legend: false,
                  tooltip: false,
                  viz: false,
                },
              },
            },
            overrides: [],
          },
          options: {
            calculate: false,
            cellGap: 1,
            cellValues: {
              unit: 'percentunit',
            },
            color: {
              mode: 'scheme',
              scheme: 'Purples',
              fill: 'dark-orange',
              scale: 'exponential',
              exponent: 0.5,
              steps: 64,
              reverse: false,
              min: 0,
              max: 1,
            },
            rowsFrame: {
              layout: 'auto',
              value: 'busy',
            },
            yAxis: {
              axisPlacement: 'left',
              reverse: false,
              unit: 'none',
              axisLabel: 'cpu',
            },
            legend: {
              show: true,
            },
            tooltip: {
              mode: 'single',
              yHistogram: false,
              showColorScale: true,
            },
            exemplars: {
              color: 'rgba(255,0,255,0.7)',
            },
            filterValues: {
              le: 1e-09,
            },
          },
          id: 19,
          gridPos: {
            h: 8,
            w: 12,
            x: 12,
            y: 31,
          },
        },
        {
          type: 'timeseries',
          title: 'Softirq, irq and steal per core',
          description: 'Fraction of each core spent in softirq, irq and steal. Steal is time the hypervisor gave to another guest: a peer losing steal cannot reach the reference ceiling for its size.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'sum by (cpu, mode) (rate(headroom_cpu_seconds_total{instance="$instance", mode=~"softirq|irq|steal"}[$__rate_interval]))',
              legendFormat: 'cpu {{cpu}} {{mode}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 0,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
              min: 0,
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 20,
          gridPos: {
            h: 8,
            w: 8,
            x: 0,
            y: 39,
          },
        },
        {
          type: 'timeseries',
          title: 'Datapath CPU',
          description: 'CPU used by the WireGuard datapath, in cores (headroom_datapath_cpu_seconds_total: the TUN-holding process for userspace; softirq and the wg-crypt / napi threads for kernel), against the online cores and the cores at or above the saturation threshold.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'rate(headroom_datapath_cpu_seconds_total{instance="$instance"}[$__rate_interval])',
              legendFormat: 'datapath',
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_cpus_online{instance="$instance"}',
              legendFormat: 'online cores',
              range: true,
              instant: false,
            },
            {
              refId: 'C',
              datasource: ds,
              editorMode: 'code',
              expr: 'headroom_cpus_saturated{instance="$instance"}',
              legendFormat: 'saturated cores',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'suffix: cores',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 0,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
              min: 0,
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 21,
          gridPos: {
            h: 8,
            w: 8,
            x: 8,
            y: 39,
          },
        },
        {
          type: 'timeseries',
          title: 'CPU seconds per gigabyte',
          description: 'CPU seconds all cores spend per 10^9 tunnel bytes (both directions), by mode: what moving traffic costs this box. Rising at equal load means something else takes the CPU; userspace costs several times kernel. Empty while the tunnel is idle.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                sum by (mode) (rate(headroom_cpu_seconds_total{instance="$instance", mode=~"user|system|softirq"}[$__rate_interval]))
                / on () group_left ()
                (sum(rate(headroom_tunnel_bytes_total{instance="$instance"}[$__rate_interval])) / 1e9 > 0)
              |||),
              legendFormat: '{{mode}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 's',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'normal',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
              min: 0,
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 22,
          gridPos: {
            h: 8,
            w: 8,
            x: 16,
            y: 39,
          },
        },
        {
          type: 'row',
          title: 'Packets and underlay',
          id: 23,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 47,
          },
          panels: [],
        },
        {
          type: 'timeseries',
          title: 'Packets per second',
          description: 'Tunnel packets per second per direction, rate(headroom_tunnel_packets_total[$__rate_interval]). Small packets cost the CPU per packet: roughly half the download ceiling at small fixed sizes.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'sum by (direction) (rate(headroom_tunnel_packets_total{instance="$instance"}[$__rate_interval]))',
              legendFormat: '{{direction}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'pps',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
              min: 0,
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 24,
          gridPos: {
            h: 8,
            w: 8,
            x: 0,
            y: 48,
          },
        },
        {
          type: 'timeseries',
          title: 'Mean packet size (MTU effectiveness)',
          description: 'Bytes per packet per direction over the rate interval, against the tunnel MTU (dashed). Far below the MTU: small-packet traffic, and a bigger MTU would not help it.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                sum by (direction) (rate(headroom_tunnel_bytes_total{instance="$instance"}[$__rate_interval]))
                / (sum by (direction) (rate(headroom_tunnel_packets_total{instance="$instance"}[$__rate_interval])) > 0)
              |||),
              legendFormat: '{{direction}}',
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'max(headroom_tunnel_mtu_bytes{instance="$instance"})',
              legendFormat: 'tunnel MTU',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'decbytes',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 0,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
              min: 0,
            },
            overrides: [
              {
                matcher: {
                  id: 'byRegexp',
                  options: 'tunnel MTU',
                },
                properties: [
                  {
                    id: 'custom.lineStyle',
                    value: {
                      fill: 'dash',
                      dash: [10, 10],
                    },
                  },
                  {
                    id: 'custom.fillOpacity',
                    value: 0,
                  },
                  {
                    id: 'custom.lineWidth',
                    value: 2,
                  },
                ],
              },
            ],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 25,
          gridPos: {
            h: 8,
            w: 8,
            x: 8,
            y: 48,
          },
        },
        {
          type: 'timeseries',
          title: 'Underlay utilization of line rate',
          description: 'Underlay NIC traffic over its line rate (--underlay.line-rate, else sysfs speed), per side: transmit limits download, receive limits upload. The link_bound verdict enters at 90 %. Empty when the line rate is unknown.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                sum by (direction) (rate(headroom_underlay_bytes_total{instance="$instance"}[$__rate_interval]))
                / on () group_left () (max(headroom_underlay_line_rate_bytes_per_second{instance="$instance"}) > 0)
              |||),
              legendFormat: '{{direction}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 0,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'line+area',
                },
              },
              min: 0,
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                  {
                    color: 'orange',
                    value: 0.8,
                  },
                  {
                    color: 'red',
                    value: 0.9,
                  },
                ],
              },
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 26,
          gridPos: {
            h: 8,
            w: 8,
            x: 16,
            y: 48,
          },
        },
        {
          type: 'row',
          title: 'Alerts',
          id: 27,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 56,
          },
          panels: [],
        },
        {
          type: 'table',
          title: 'Alerts for this peer',
          description: 'Headroom alerts for this peer, pending and firing (ALERTS{instance="$instance"}). Click a row for its runbook. Network-level alerts (no standby, over one peer) are on the fleet dashboard.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'ALERTS{instance="$instance"}',
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              custom: {
                align: 'auto',
                cellOptions: {
                  type: 'auto',
                },
                filterable: true,
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [],
              links: [
                {
                  title: 'Runbook for ${__data.fields.alertname}',
                  url: '%(runbookURLBase)s#${__data.fields.alertname}' % f,
                  targetBlank: true,
                },
              ],
            },
            overrides: [
              {
                matcher: {
                  id: 'byName',
                  options: 'alertstate',
                },
                properties: [
                  {
                    id: 'custom.cellOptions',
                    value: {
                      type: 'color-background',
                    },
                  },
                  {
                    id: 'mappings',
                    value: [
                      {
                        type: 'value',
                        options: {
                          firing: {
                            color: 'red',
                            index: 0,
                          },
                          pending: {
                            color: 'orange',
                            index: 1,
                          },
                        },
                      },
                    ],
                  },
                ],
              },
            ],
          },
          options: {
            showHeader: true,
            cellHeight: 'sm',
            footer: {
              show: false,
              reducer: ['sum'],
              fields: '',
            },
            sortBy: [
              {
                displayName: 'alertstate',
                desc: false,
              },
            ],
          },
          transformations: [
            {
              id: 'organize',
              options: {
                excludeByName: {
                  Time: true,
                  Value: true,
                  __name__: true,
                  job: true,
                },
                indexByName: {
                  alertstate: 0,
                  alertname: 1,
                  severity: 2,
                  direction: 3,
                },
                renameByName: {},
              },
            },
          ],
          id: 28,
          gridPos: {
            h: 7,
            w: 24,
            x: 0,
            y: 57,
          },
        },
        {
          type: 'row',
          title: 'Who is on the peer',
          id: 32,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 64,
          },
          panels: [],
        },
        {
          type: 'timeseries',
          title: 'Tunnel traffic: P2P or through the relay',
          description: 'The tunnels\' traffic per direction by how each client reaches the peer (headroom_tunnel_traffic_bytes_per_second, from the census): relayed is what NetBird\'s relay carries, bound far below a direct path. The busiest tunnels by name are on the status page.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'sum by (direction, connection) (headroom_tunnel_traffic_bytes_per_second{instance="$instance"}) * 8',
              legendFormat: '{{direction}} {{connection}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'normal',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
              min: 0,
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 30,
          gridPos: {
            h: 8,
            w: 12,
            x: 0,
            y: 65,
          },
        },
        {
          type: 'timeseries',
          title: 'Active tunnels: P2P or through the relay',
          description: 'Active tunnels (clients moving data) by how they reach the peer (headroom_tunnels_active). A rise in relayed ones is a path problem on the clients\' side (UDP reachability, NAT, firewall), not the peer\'s.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'sum by (connection) (headroom_tunnels_active{instance="$instance"})',
              legendFormat: '{{connection}}',
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'normal',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
              min: 0,
            },
            overrides: [],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 31,
          gridPos: {
            h: 8,
            w: 12,
            x: 12,
            y: 65,
          },
        },
      ],
    },

    // --- Networks from NetBird: headroom discover's inventory (headroom_netbird_*) against headroom's readings.
    // Self-contained queries (inventory, `up` and the per-peer records), so they read the same under
    // headroom-rules.yml and headroom-rules-netbird.yml; empty where discover is not scraped.
    local net = c.networkLabel,
    local inv = utils.netbirdInventory(c),
    local invSel(metric, extra='') = inv('%s{%s=~"$network"%s}' % [metric, c.netbirdNetworkLabel, extra]),
    local routerKey = '%s, netbird_peer, instance' % net,
    // Every router NetBird lists, `instance` set to the target discover serves for it.
    local nbAll(metric) = 'label_replace(%s, "instance", "$1", "instance_target", "(.*)")' % invSel(metric),
    local nbEnabled = '%s and on (%s, netbird_peer, instance_target) (%s == 1)'
                      % [nbAll('headroom_netbird_router_metric'), net, invSel('headroom_netbird_router_enabled')],
    // Enabled routers whose exporter answers and whose peer NetBird sees connected: candidates to be active.
    local nbUp = '(%s) and on (instance) (max by (instance) (up{%s}) == 1) and on (%s, netbird_peer) (max by (%s, netbird_peer) (%s) == 1)'
                 % [nbEnabled, c.headroomSelector, net, net, invSel('headroom_netbird_peer_connected')],
    // The active router of each Network: the lowest NetBird metric among those (the value is the metric).
    local nbActive = '((%s) == on (%s) group_left () min by (%s) (%s))' % [nbUp, net, net, nbUp],
    // Network load (the larger direction) against the active peer's ceiling.
    local nbLoad = |||
      max by (%(net)s) (
        sum by (%(net)s, direction) (instance:headroom_tunnel_bytes:rate5m{%(net)s=~"$network"})
        / on (%(net)s, direction)
        min by (%(net)s, direction) (
          instance:headroom_ceiling_bytes_per_second:max
          * on (instance, %(net)s) group_left () (max by (instance, %(net)s) (%(active)s) * 0 + 1)
        )
      )
    ||| % { net: net, active: nbActive },
    local okBroken = [{ type: 'value', options: { '0': { text: 'ok', color: 'green', index: 0 }, '1': { text: 'broken', color: 'red', index: 1 } } }],
    local column(name, props) = { matcher: { id: 'byName', options: name }, properties: props },
    local colored(mappings) = [{ id: 'custom.cellOptions', value: { type: 'color-background' } }, { id: 'mappings', value: mappings }],
    local nbTable(id, title, description, queries, names, overrides, order, gridPos) = {
      type: 'table',
      title: title,
      description: description,
      datasource: ds,
      targets: [
        {
          refId: q[0],
          datasource: ds,
          editorMode: 'code',
          expr: block(q[1]),
          legendFormat: '',
          range: false,
          instant: true,
          format: 'table',
        }
        for q in queries
      ],
      fieldConfig: {
        defaults: {
          unit: 'none',
          custom: { align: 'auto', cellOptions: { type: 'auto' }, filterable: true },
          thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }] },
          mappings: [],
        },
        overrides: overrides,
      },
      options: { showHeader: true, cellHeight: 'sm', footer: { show: false, reducer: ['sum'], fields: '' }, sortBy: [{ displayName: net, desc: false }] },
      transformations: [
        { id: 'merge', options: {} },
        {
          id: 'organize',
          options: {
            excludeByName: { Time: true },
            indexByName: { [order[i]]: i for i in std.range(0, std.length(order) - 1) },
            renameByName: { ['Value #' + q[0]]: names[q[0]] for q in queries },
          },
        },
      ],
      id: id,
      gridPos: gridPos,
    },
    local netbirdPanels = [
      {
        type: 'row',
        title: 'Networks from NetBird',
        id: 21,
        collapsed: false,
        gridPos: { h: 1, w: 24, x: 0, y: 57 },
        panels: [],
      },
      nbTable(
        22,
        'Networks from NetBird',
        "Each Network NetBird lists (headroom discover's inventory), checked against the guide's design: routers NetBird has (enabled), how many answer headroom with their peer connected, the active one (lowest NetBird metric among those) and its metric, the Network's load against the active peer's ceiling (the larger direction, 5 minutes), and the rules broken: a single router (no standby), past one peer (load above the active peer's ceiling), a box that also routes another Network. Empty without headroom discover.",
        [
          ['A', 'max by (%s) (%s)' % [net, invSel('headroom_netbird_network_routers')]],
          ['B', 'count by (%s) (%s)' % [net, nbUp]],
          ['C', 'max by (%s, netbird_peer) (%s)' % [net, nbActive]],
          ['D', nbLoad],
          ['E', 'max by (%s) (%s)' % [net, invSel('headroom_netbird_inventory_problems', ', problem="single_router"')]],
          ['F', '(%s) > bool 1' % std.rstripChars(nbLoad, '\n')],
          ['G', 'max by (%s) (%s)' % [net, invSel('headroom_netbird_inventory_problems', ', problem="shared_box"')]],
        ],
        { A: 'routers', B: 'routers up', C: 'active metric', D: 'load of active peer', E: 'single router', F: 'past one peer', G: 'shared box' },
        [
          column('load of active peer', [
            { id: 'unit', value: 'percentunit' },
            { id: 'custom.cellOptions', value: { type: 'gauge', mode: 'gradient' } },
            { id: 'min', value: 0 },
            { id: 'max', value: 1 },
            { id: 'thresholds', value: { mode: 'absolute', steps: [
              { color: 'green', value: null },
              { color: 'orange', value: c.peerNearCeilingThreshold },
              { color: 'red', value: c.networkOverOnePeerThreshold },
            ] } },
          ]),
          column('routers', [{ id: 'custom.cellOptions', value: { type: 'color-text' } }, { id: 'thresholds', value: { mode: 'absolute', steps: [{ color: 'red', value: null }, { color: 'green', value: 2 }] } }]),
          column('single router', colored(okBroken)),
          column('past one peer', colored(okBroken)),
          column('shared box', colored(okBroken)),
        ],
        [net, 'routers', 'routers up', 'netbird_peer', 'active metric', 'load of active peer', 'single router', 'past one peer', 'shared box'],
        { h: 9, w: 24, x: 0, y: 58 },
      ),
      nbTable(
        23,
        'Routers from NetBird',
        "Every router NetBird lists per Network: its NetBird metric (lowest wins), enabled, its peer connected in NetBird, whether headroom scrapes its target (up, down, or not scraped: HeadroomNetBirdRouterUnscraped), whether it is the Network's active peer, and how many other Networks the same box routes.",
        [
          ['A', 'max by (%s) (%s)' % [routerKey, nbAll('headroom_netbird_router_metric')]],
          ['B', 'max by (%s) (%s)' % [routerKey, nbAll('headroom_netbird_router_enabled')]],
          ['C', 'max by (%s) (%s)' % [routerKey, nbAll('headroom_netbird_peer_connected')]],
          ['D', |||
            max by (%(key)s) (%(all)s * 0 + on (instance) group_left () max by (instance) (up{%(sel)s}))
            or max by (%(key)s) (%(all)s * 0 - 1)
          ||| % { key: routerKey, all: nbAll('headroom_netbird_router_metric'), sel: c.headroomSelector }],
          ['E', |||
            max by (%(key)s) (%(active)s * 0 + 1)
            or max by (%(key)s) ((%(enabled)s) * 0)
          ||| % { key: routerKey, active: nbActive, enabled: nbEnabled }],
          ['F', |||
            max by (%(key)s) (
              %(all)s * 0
              + on (instance) group_left () (count by (instance) (label_replace(%(any)s, "instance", "$1", "instance_target", "(.+)")) - 1)
            )
          ||| % { key: routerKey, all: nbAll('headroom_netbird_router_metric'), any: inv('headroom_netbird_router_metric') }],
        ],
        { A: 'metric', B: 'enabled', C: 'connected', D: 'scraped', E: 'active', F: 'other Networks on the box' },
        [
          column('enabled', colored([{ type: 'value', options: { '0': { text: 'disabled', color: 'text', index: 0 }, '1': { text: 'enabled', color: 'green', index: 1 } } }])),
          column('connected', colored([{ type: 'value', options: { '0': { text: 'disconnected', color: 'red', index: 0 }, '1': { text: 'connected', color: 'green', index: 1 } } }])),
          column('scraped', colored([{ type: 'value', options: { '-1': { text: 'not scraped', color: 'red', index: 0 }, '0': { text: 'down', color: 'orange', index: 1 }, '1': { text: 'up', color: 'green', index: 2 } } }])),
          column('active', colored([{ type: 'value', options: { '0': { text: 'standby', color: 'text', index: 0 }, '1': { text: 'active', color: 'blue', index: 1 } } }])),
          column('other Networks on the box', colored([{ type: 'value', options: { '0': { text: 'none', color: 'green', index: 0 } } }, { type: 'range', options: { from: 1, to: 1e9, result: { color: 'red', index: 1 } } }])),
        ],
        [net, 'netbird_peer', 'instance', 'metric', 'enabled', 'connected', 'scraped', 'active', 'other Networks on the box'],
        { h: 10, w: 24, x: 0, y: 67 },
      ),
    ],

    'headroom-fleet.json': {
      uid: 'headroom-fleet',
      title: 'headroom / fleet',
      description: 'Every NetBird routing peer headroom watches: load against capacity per Network and site, peers up, Networks needed now and at the daily peak, and what to do.',
      tags: ['headroom', 'netbird', 'wireguard'],
      editable: true,
      graphTooltip: 1,
      fiscalYearStartMonth: 0,
      liveNow: false,
      refresh: '30s',
      schemaVersion: 39,
      version: 1,
      weekStart: '',
      time: {
        from: 'now-7d',
        to: 'now',
      },
      timepicker: {},
      timezone: '',
      annotations: {
        list: [
          {
            builtIn: 1,
            datasource: {
              type: 'grafana',
              uid: '-- Grafana --',
            },
            enable: true,
            hide: true,
            iconColor: 'rgba(0, 211, 255, 1)',
            name: 'Annotations & Alerts',
            type: 'dashboard',
          },
        ],
      },
      links: [
        {
          title: 'Peer',
          type: 'link',
          url: '/d/headroom-peer',
          icon: 'dashboard',
          includeVars: true,
          keepTime: true,
          targetBlank: false,
          asDropdown: false,
          tags: [],
          tooltip: 'Open the Peer dashboard with the same data source, site and Network',
        },
        {
          title: 'Runbooks',
          type: 'link',
          url: '%(runbookURLBase)s' % f,
          icon: 'doc',
          includeVars: false,
          keepTime: false,
          targetBlank: true,
          asDropdown: false,
          tags: [],
          tooltip: 'What each headroom alert means and what to do (docs/runbooks.md)',
        },
        {
          title: 'Metrics',
          type: 'link',
          url: '%(docsURLBase)s/metrics.md' % f,
          icon: 'info',
          includeVars: false,
          keepTime: false,
          targetBlank: true,
          asDropdown: false,
          tags: [],
          tooltip: 'Every headroom_* series (docs/metrics.md)',
        },
      ],
      templating: {
        list: [
          {
            name: 'datasource',
            label: 'Data source',
            type: 'datasource',
            query: 'prometheus',
            current: {},
            hide: 0,
            refresh: 1,
            regex: '',
            options: [],
            includeAll: false,
            multi: false,
          },
          {
            name: 'site',
            label: 'Site',
            description: '',
            type: 'query',
            datasource: ds,
            definition: 'label_values(headroom_peer_info, %(siteLabel)s)' % f,
            query: {
              qryType: 1,
              query: 'label_values(headroom_peer_info, %(siteLabel)s)' % f,
              refId: 'PrometheusVariableQueryEditor-VariableQuery',
            },
            refresh: 2,
            sort: 1,
            regex: '',
            hide: 0,
            current: {},
            options: [],
            multi: true,
            includeAll: true,
            allValue: '.*',
          },
          {
            name: 'network',
            label: 'Network',
            description: '',
            type: 'query',
            datasource: ds,
            definition: 'label_values(headroom_peer_info{%(siteLabel)s=~"$site"}, %(networkLabel)s)' % f,
            query: {
              qryType: 1,
              query: 'label_values(headroom_peer_info{%(siteLabel)s=~"$site"}, %(networkLabel)s)' % f,
              refId: 'PrometheusVariableQueryEditor-VariableQuery',
            },
            refresh: 2,
            sort: 1,
            regex: '',
            hide: 0,
            current: {},
            options: [],
            multi: true,
            includeAll: true,
            allValue: '.*',
          },
        ],
      },
      panels: [
        {
          type: 'row',
          title: 'Fleet',
          id: 1,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 1,
          },
          panels: [],
        },
        {
          type: 'stat',
          title: 'Networks in place',
          description: 'Networks with at least one peer seen in the last hour (network:headroom_peers:count).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'count(network:headroom_peers:count{%(networkLabel)s=~"$network"} and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"})' % f,
              legendFormat: 'Networks',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              decimals: 0,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 2,
          gridPos: {
            h: 4,
            w: 4,
            x: 0,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Networks needed now',
          description: "Sum over Networks of ceil(load / one peer's ceiling) per direction, the larger direction: how many Networks the current 5-minute load needs when each must fit on one peer (HA is failover, never load balancing).",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                max(
                  sum by (direction) (
                    clamp_min(ceil(network:headroom_utilization:ratio_rate5m{%(networkLabel)s=~"$network"} and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}), 1)
                  )
                )
              ||| % f),
              legendFormat: 'needed now',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              decimals: 0,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 3,
          gridPos: {
            h: 4,
            w: 5,
            x: 4,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Networks needed at the daily peak',
          description: "The same at each Network's rolling daily peak (network:headroom_tunnel_bytes:max_over_time1d_rate5m): what to have in place for the busiest 5 minutes of the last day.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                max(
                  sum by (direction) (
                    clamp_min(ceil(
                      network:headroom_tunnel_bytes:max_over_time1d_rate5m{%(networkLabel)s=~"$network"}
                      / on (%(networkLabel)s, direction) (network:headroom_ceiling_bytes_per_second:min > 0)
                      and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}
                    ), 1)
                  )
                )
              ||| % f),
              legendFormat: 'needed at peak',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              decimals: 0,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 4,
          gridPos: {
            h: 4,
            w: 5,
            x: 9,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Peers up',
          description: 'Peers scraped with a tunnel interface present, fleet-wide (instance:headroom_tunnel_up:max == 1), of all peers seen in the last hour.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'count(instance:headroom_tunnel_up:max{%(networkLabel)s=~"$network", %(siteLabel)s=~"$site"} == 1) or vector(0)' % f,
              legendFormat: 'up',
              range: false,
              instant: true,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'sum(network:headroom_peers:count{%(networkLabel)s=~"$network"} and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"})' % f,
              legendFormat: 'seen (%(networkPeersSeenWindow)s)' % f,
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              decimals: 0,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value_and_name',
            colorMode: 'value',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 5,
          gridPos: {
            h: 4,
            w: 5,
            x: 14,
            y: 2,
          },
        },
        {
          type: 'stat',
          title: 'Alerts firing',
          description: 'Headroom alerts firing across the selection (pending ones excluded).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'count(ALERTS{alertname=~"Headroom.*", alertstate="firing"}) or vector(0)',
              legendFormat: 'firing',
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              mappings: [],
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                  {
                    color: 'red',
                    value: 1,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              decimals: 0,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            textMode: 'value',
            colorMode: 'background',
            graphMode: 'none',
            justifyMode: 'auto',
            orientation: 'auto',
            wideLayout: true,
            showPercentChange: false,
          },
          id: 6,
          gridPos: {
            h: 4,
            w: 5,
            x: 19,
            y: 2,
          },
        },
        {
          type: 'row',
          title: 'Per Network',
          id: 7,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 6,
          },
          panels: [],
        },
        {
          type: 'timeseries',
          title: "Network load vs one peer's ceiling",
          description: "Each Network's 5-minute load per direction in bits per second (network:headroom_tunnel_bytes:rate5m x 8) against the smallest ceiling among its peers (dashed): the whole Network must fit on any one of its peers.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_tunnel_bytes:rate5m{%(networkLabel)s=~"$network"} * 8 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '{{%(networkLabel)s}} {{direction}}' % f,
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_ceiling_bytes_per_second:min{%(networkLabel)s=~"$network"} * 8 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '{{%(networkLabel)s}} {{direction}} ceiling' % f,
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
            },
            overrides: [
              {
                matcher: {
                  id: 'byRegexp',
                  options: '.*ceiling$',
                },
                properties: [
                  {
                    id: 'custom.lineStyle',
                    value: {
                      fill: 'dash',
                      dash: [10, 10],
                    },
                  },
                  {
                    id: 'custom.fillOpacity',
                    value: 0,
                  },
                  {
                    id: 'custom.lineWidth',
                    value: 2,
                  },
                ],
              },
            ],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 8,
          gridPos: {
            h: 8,
            w: 14,
            x: 0,
            y: 7,
          },
        },
        {
          type: 'bargauge',
          title: 'Network utilization of one peer',
          description: "Network load over one peer's ceiling (network:headroom_utilization:ratio_rate5m). Above %s %% it no longer survives a failover; HeadroomNetworkOverOnePeer fires after %s." % [utils.pct(c.networkOverOnePeerThreshold), utils.duration(c.networkOverOnePeerFor)],
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_utilization:ratio_rate5m{%(networkLabel)s=~"$network"} and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '{{%(networkLabel)s}} {{direction}}' % f,
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              min: 0,
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                  {
                    color: 'orange',
                    value: c.peerNearCeilingThreshold,
                  },
                  {
                    color: 'red',
                    value: c.networkOverOnePeerThreshold,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              max: 1.2,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            displayMode: 'gradient',
            orientation: 'horizontal',
            showUnfilled: true,
            valueMode: 'color',
            namePlacement: 'auto',
            sizing: 'auto',
          },
          id: 9,
          gridPos: {
            h: 8,
            w: 10,
            x: 14,
            y: 7,
          },
        },
        {
          type: 'table',
          title: 'Peers per Network',
          description: 'Peers up per Network, split into active (carrying more than %s Mbit/s in either direction over 5 minutes) and standby (up, idle), and all peers seen in the last %s. Each Network needs at least one standby (HeadroomNetworkNoStandby).' % [utils.num(c.dashboardActivePeerMinBytesPerSecond * 8 / 1e6), utils.durationLast(c.networkPeersSeenWindow)],
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_peers_up:sum{%(networkLabel)s=~"$network"} and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                count by (%(networkLabel)s) (
                  max by (%(networkLabel)s, job, instance) (instance:headroom_tunnel_bytes:rate5m{%(networkLabel)s=~"$network", %(siteLabel)s=~"$site"}) > %(dashboardActivePeerMinBytesPerSecond)s
                  and on (job, instance) (instance:headroom_tunnel_up:max == 1)
                )
                or on (%(networkLabel)s) (network:headroom_peers:count{%(networkLabel)s=~"$network"} * 0 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"})
              ||| % f),
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
            {
              refId: 'C',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                count by (%(networkLabel)s) (
                  instance:headroom_tunnel_up:max{%(networkLabel)s=~"$network", %(siteLabel)s=~"$site"} == 1
                  unless on (job, instance) (max by (job, instance) (instance:headroom_tunnel_bytes:rate5m) > %(dashboardActivePeerMinBytesPerSecond)s)
                )
                or on (%(networkLabel)s) (network:headroom_peers:count{%(networkLabel)s=~"$network"} * 0 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"})
              ||| % f),
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
            {
              refId: 'D',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_peers:count{%(networkLabel)s=~"$network"} and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              custom: {
                align: 'auto',
                cellOptions: {
                  type: 'auto',
                },
                filterable: true,
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [],
            },
            overrides: [
              {
                matcher: {
                  id: 'byName',
                  options: 'standby',
                },
                properties: [
                  {
                    id: 'custom.cellOptions',
                    value: {
                      type: 'color-background',
                    },
                  },
                  {
                    id: 'thresholds',
                    value: {
                      mode: 'absolute',
                      steps: [
                        {
                          color: 'red',
                          value: null,
                        },
                        {
                          color: 'green',
                          value: 1,
                        },
                      ],
                    },
                  },
                ],
              },
            ],
          },
          options: {
            showHeader: true,
            cellHeight: 'sm',
            footer: {
              show: false,
              reducer: ['sum'],
              fields: '',
            },
          },
          transformations: [
            {
              id: 'merge',
              options: {},
            },
            {
              id: 'organize',
              options: {
                excludeByName: {
                  Time: true,
                },
                renameByName: {
                  'Value #A': 'up',
                  'Value #B': 'active',
                  'Value #C': 'standby',
                  'Value #D': 'seen (%(networkPeersSeenWindow)s)' % f,
                },
              },
            },
          ],
          id: 10,
          gridPos: {
            h: 8,
            w: 10,
            x: 0,
            y: 15,
          },
        },
        {
          type: 'table',
          title: 'Networks needed per Network',
          description: "For each Network and direction: load and daily peak in bits per second, one peer's ceiling, and ceil(load / ceiling) now and at the daily peak: how many Networks its users should be split over.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_tunnel_bytes:rate5m{%(networkLabel)s=~"$network"} * 8 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_tunnel_bytes:max_over_time1d_rate5m{%(networkLabel)s=~"$network"} * 8 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
            {
              refId: 'C',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_ceiling_bytes_per_second:min{%(networkLabel)s=~"$network"} * 8 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
            {
              refId: 'D',
              datasource: ds,
              editorMode: 'code',
              expr: 'clamp_min(ceil(network:headroom_utilization:ratio_rate5m{%(networkLabel)s=~"$network"} and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}), 1)' % f,
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
            {
              refId: 'E',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                clamp_min(ceil(network:headroom_tunnel_bytes:max_over_time1d_rate5m{%(networkLabel)s=~"$network"}
                / on (%(networkLabel)s, direction) (network:headroom_ceiling_bytes_per_second:min > 0) and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}), 1)
              ||| % f),
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              custom: {
                align: 'auto',
                cellOptions: {
                  type: 'auto',
                },
                filterable: true,
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [],
            },
            overrides: [
              {
                matcher: {
                  id: 'byRegexp',
                  options: '^(Networks needed now|at daily peak)$',
                },
                properties: [
                  {
                    id: 'unit',
                    value: 'none',
                  },
                  {
                    id: 'decimals',
                    value: 0,
                  },
                  {
                    id: 'custom.cellOptions',
                    value: {
                      type: 'color-text',
                    },
                  },
                  {
                    id: 'thresholds',
                    value: {
                      mode: 'absolute',
                      steps: [
                        {
                          color: 'green',
                          value: null,
                        },
                        {
                          color: 'orange',
                          value: 2,
                        },
                      ],
                    },
                  },
                ],
              },
            ],
          },
          options: {
            showHeader: true,
            cellHeight: 'sm',
            footer: {
              show: false,
              reducer: ['sum'],
              fields: '',
            },
          },
          transformations: [
            {
              id: 'merge',
              options: {},
            },
            {
              id: 'organize',
              options: {
                excludeByName: {
                  Time: true,
                },
                renameByName: {
                  'Value #A': 'load',
                  'Value #B': 'daily peak',
                  'Value #C': "one peer's ceiling",
                  'Value #D': 'Networks needed now',
                  'Value #E': 'at daily peak',
                },
              },
            },
          ],
          id: 11,
          gridPos: {
            h: 8,
            w: 14,
            x: 10,
            y: 15,
          },
        },
        {
          type: 'timeseries',
          title: 'Daily peak trend and %s forecast' % utils.daysAdjective(c.forecastHorizonDays),
          description: "Each Network's rolling daily peak (network:headroom_tunnel_bytes:max_over_time1d_rate5m x 8) and a straight line through the last %s of it, %s days ahead, against one peer's ceiling. The forecast needs %s of history (%s hourly points) before it is drawn; HeadroomNetworkCeilingForecast uses %s and needs %s." % [utils.duration(c.dashboardForecastRange), c.forecastHorizonDays, utils.hours(c.dashboardForecastMinPoints), c.dashboardForecastMinPoints, utils.duration(c.forecastRange), utils.num(c.forecastMinPoints / 24)],
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_tunnel_bytes:max_over_time1d_rate5m{%(networkLabel)s=~"$network"} * 8 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '{{%(networkLabel)s}} {{direction}} daily peak' % f,
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                (
                  predict_linear(network:headroom_tunnel_bytes:max_over_time1d_rate5m{%(networkLabel)s=~"$network"}[%(dashboardForecastRange)s:1h], %(forecastHorizonDays)s * 86400) * 8
                  and on (%(networkLabel)s, direction)
                  (count_over_time(network:headroom_tunnel_bytes:max_over_time1d_rate5m{%(networkLabel)s=~"$network"}[%(dashboardForecastRange)s:1h]) >= %(dashboardForecastMinPoints)s)
                ) and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}
              ||| % f),
              legendFormat: '{{%(networkLabel)s}} {{direction}} in %(forecastHorizonDays)s days' % f,
              range: true,
              instant: false,
            },
            {
              refId: 'C',
              datasource: ds,
              editorMode: 'code',
              expr: 'network:headroom_ceiling_bytes_per_second:min{%(networkLabel)s=~"$network"} * 8 and on (%(networkLabel)s) headroom_peer_info{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '{{%(networkLabel)s}} {{direction}} ceiling' % f,
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 0,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
            },
            overrides: [
              {
                matcher: {
                  id: 'byRegexp',
                  options: '.*ceiling$',
                },
                properties: [
                  {
                    id: 'custom.lineStyle',
                    value: {
                      fill: 'dash',
                      dash: [10, 10],
                    },
                  },
                  {
                    id: 'custom.fillOpacity',
                    value: 0,
                  },
                  {
                    id: 'custom.lineWidth',
                    value: 2,
                  },
                ],
              },
              {
                matcher: {
                  id: 'byRegexp',
                  options: '.*in %(forecastHorizonDays)s days$' % f,
                },
                properties: [
                  {
                    id: 'custom.lineStyle',
                    value: {
                      fill: 'dot',
                    },
                  },
                  {
                    id: 'custom.fillOpacity',
                    value: 0,
                  },
                ],
              },
            ],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 12,
          gridPos: {
            h: 8,
            w: 24,
            x: 0,
            y: 23,
          },
        },
        {
          type: 'row',
          title: 'Per site',
          id: 13,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 31,
          },
          panels: [],
        },
        {
          type: 'timeseries',
          title: 'Site load vs installed capacity',
          description: "Each site's 5-minute load per direction (site:headroom_tunnel_bytes:rate5m x 8) against the sum of its peers' ceilings, standbys included (dashed).",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'site:headroom_tunnel_bytes:rate5m{%(siteLabel)s=~"$site"} * 8' % f,
              legendFormat: '{{%(siteLabel)s}} {{direction}}' % f,
              range: true,
              instant: false,
            },
            {
              refId: 'B',
              datasource: ds,
              editorMode: 'code',
              expr: 'site:headroom_ceiling_bytes_per_second:sum{%(siteLabel)s=~"$site"} * 8' % f,
              legendFormat: '{{%(siteLabel)s}} {{direction}} ceiling' % f,
              range: true,
              instant: false,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'bps',
              color: {
                mode: 'palette-classic',
              },
              custom: {
                drawStyle: 'line',
                lineWidth: 1,
                fillOpacity: 10,
                showPoints: 'never',
                spanNulls: false,
                axisSoftMin: 0,
                stacking: {
                  mode: 'none',
                  group: 'A',
                },
                thresholdsStyle: {
                  mode: 'off',
                },
              },
            },
            overrides: [
              {
                matcher: {
                  id: 'byRegexp',
                  options: '.*ceiling$',
                },
                properties: [
                  {
                    id: 'custom.lineStyle',
                    value: {
                      fill: 'dash',
                      dash: [10, 10],
                    },
                  },
                  {
                    id: 'custom.fillOpacity',
                    value: 0,
                  },
                  {
                    id: 'custom.lineWidth',
                    value: 2,
                  },
                ],
              },
            ],
          },
          options: {
            legend: {
              displayMode: 'table',
              placement: 'bottom',
              showLegend: true,
              calcs: ['mean', 'max', 'lastNotNull'],
            },
            tooltip: {
              mode: 'multi',
              sort: 'desc',
            },
          },
          id: 14,
          gridPos: {
            h: 8,
            w: 12,
            x: 0,
            y: 32,
          },
        },
        {
          type: 'bargauge',
          title: 'Site utilization of installed capacity',
          description: "Share of the site's installed capacity in use (site:headroom_utilization:ratio_rate5m). With one standby per Network, plan for at most ~50 %.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'site:headroom_utilization:ratio_rate5m{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '{{%(siteLabel)s}} {{direction}}' % f,
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              min: 0,
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                  {
                    color: 'orange',
                    value: 0.5,
                  },
                  {
                    color: 'red',
                    value: 0.8,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
              max: 1,
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            displayMode: 'gradient',
            orientation: 'horizontal',
            showUnfilled: true,
            valueMode: 'color',
            namePlacement: 'auto',
            sizing: 'auto',
          },
          id: 15,
          gridPos: {
            h: 8,
            w: 6,
            x: 12,
            y: 32,
          },
        },
        {
          type: 'bargauge',
          title: 'Peers up per site',
          description: 'Peers up per site (site:headroom_peers_up:sum).',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'site:headroom_peers_up:sum{%(siteLabel)s=~"$site"}' % f,
              legendFormat: '{{%(siteLabel)s}}' % f,
              range: false,
              instant: true,
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              min: 0,
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              color: {
                mode: 'thresholds',
              },
            },
            overrides: [],
          },
          options: {
            reduceOptions: {
              calcs: ['lastNotNull'],
              fields: '',
              values: false,
            },
            displayMode: 'gradient',
            orientation: 'horizontal',
            showUnfilled: true,
            valueMode: 'color',
            namePlacement: 'auto',
            sizing: 'auto',
          },
          id: 16,
          gridPos: {
            h: 8,
            w: 6,
            x: 18,
            y: 32,
          },
        },
        {
          type: 'row',
          title: 'Peers',
          id: 17,
          collapsed: false,
          gridPos: {
            h: 1,
            w: 24,
            x: 0,
            y: 40,
          },
          panels: [],
        },
        {
          type: 'table',
          title: 'Most loaded peers',
          description: 'The 10 peers closest to their own ceiling, per direction (topk over instance:headroom_utilization:ratio_rate5m). Click a row to open the peer dashboard.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: 'topk(10, instance:headroom_utilization:ratio_rate5m{%(networkLabel)s=~"$network", %(siteLabel)s=~"$site"})' % f,
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'percentunit',
              custom: {
                align: 'auto',
                cellOptions: {
                  type: 'auto',
                },
                filterable: true,
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [],
              links: [
                {
                  title: 'Open peer ${__data.fields.instance}',
                  url: '/d/headroom-peer?var-instance=${__data.fields.instance}&${datasource:queryparam}',
                  targetBlank: false,
                },
              ],
            },
            overrides: [
              {
                matcher: {
                  id: 'byName',
                  options: 'utilization',
                },
                properties: [
                  {
                    id: 'custom.cellOptions',
                    value: {
                      type: 'gauge',
                      mode: 'gradient',
                    },
                  },
                  {
                    id: 'min',
                    value: 0,
                  },
                  {
                    id: 'max',
                    value: 1,
                  },
                  {
                    id: 'thresholds',
                    value: {
                      mode: 'absolute',
                      steps: [
                        {
                          color: 'green',
                          value: null,
                        },
                        {
                          color: 'orange',
                          value: c.peerNearCeilingThreshold,
                        },
                        {
                          color: 'red',
                          value: c.peerAtCeilingThreshold,
                        },
                      ],
                    },
                  },
                ],
              },
            ],
          },
          options: {
            showHeader: true,
            cellHeight: 'sm',
            footer: {
              show: false,
              reducer: ['sum'],
              fields: '',
            },
            sortBy: [
              {
                displayName: 'utilization',
                desc: true,
              },
            ],
          },
          transformations: [
            {
              id: 'organize',
              options: {
                excludeByName: {
                  Time: true,
                  job: true,
                  __name__: true,
                },
                indexByName: {
                  instance: 0,
                  [c.networkLabel]: 1,
                  [c.siteLabel]: 2,
                  direction: 3,
                  Value: 4,
                },
                renameByName: {
                  Value: 'utilization',
                },
              },
            },
          ],
          id: 18,
          gridPos: {
            h: 9,
            w: 12,
            x: 0,
            y: 41,
          },
        },
        {
          type: 'table',
          title: 'Recommendations',
          description: "Every peer's current advice (headroom_advice == 1, joined with headroom_peer_info for Network and site). `none` means nothing to do. The reason in words is on each peer's status page (http://<instance>/) and on the peer dashboard.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                (headroom_advice == 1)
                * on (job, instance) group_left (%(networkLabel)s, %(siteLabel)s) headroom_peer_info{%(networkLabel)s=~"$network", %(siteLabel)s=~"$site"}
              ||| % f),
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              custom: {
                align: 'auto',
                cellOptions: {
                  type: 'auto',
                },
                filterable: true,
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [],
              links: [
                {
                  title: 'Open peer ${__data.fields.instance}',
                  url: '/d/headroom-peer?var-instance=${__data.fields.instance}&${datasource:queryparam}',
                  targetBlank: false,
                },
              ],
            },
            overrides: [
              {
                matcher: {
                  id: 'byName',
                  options: 'advice',
                },
                properties: [
                  {
                    id: 'custom.cellOptions',
                    value: {
                      type: 'color-background',
                    },
                  },
                  {
                    id: 'mappings',
                    value: [
                      {
                        type: 'value',
                        options: {
                          none: {
                            color: 'green',
                            index: 0,
                          },
                          scale_up: {
                            color: 'orange',
                            index: 1,
                          },
                          scale_out: {
                            color: 'red',
                            index: 2,
                          },
                          enable_kernel_wireguard: {
                            color: 'orange',
                            index: 3,
                          },
                          raise_mtu: {
                            color: 'yellow',
                            index: 4,
                          },
                          bigger_interface: {
                            color: 'orange',
                            index: 5,
                          },
                        },
                      },
                    ],
                  },
                ],
              },
            ],
          },
          options: {
            showHeader: true,
            cellHeight: 'sm',
            footer: {
              show: false,
              reducer: ['sum'],
              fields: '',
            },
            sortBy: [
              {
                displayName: 'advice',
                desc: true,
              },
            ],
          },
          transformations: [
            {
              id: 'organize',
              options: {
                excludeByName: {
                  Time: true,
                  Value: true,
                  job: true,
                  __name__: true,
                },
                indexByName: {
                  advice: 0,
                  instance: 1,
                  [c.networkLabel]: 2,
                  [c.siteLabel]: 3,
                },
                renameByName: {},
              },
            },
          ],
          id: 19,
          gridPos: {
            h: 9,
            w: 12,
            x: 12,
            y: 41,
          },
        },
        {
          type: 'table',
          title: 'Headroom alerts',
          description: 'Headroom alerts across the fleet, pending and firing (ALERTS{alertname=~"Headroom.*"}), filtered to the selected Networks where they carry one. Click a row for its runbook.',
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                ALERTS{alertname=~"Headroom.*", %(networkLabel)s=~"$network"}
                or ALERTS{alertname=~"Headroom.*", %(networkLabel)s=""}
              ||| % f),
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'none',
              custom: {
                align: 'auto',
                cellOptions: {
                  type: 'auto',
                },
                filterable: true,
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [],
              links: [
                {
                  title: 'Runbook for ${__data.fields.alertname}',
                  url: '%(runbookURLBase)s#${__data.fields.alertname}' % f,
                  targetBlank: true,
                },
              ],
            },
            overrides: [
              {
                matcher: {
                  id: 'byName',
                  options: 'alertstate',
                },
                properties: [
                  {
                    id: 'custom.cellOptions',
                    value: {
                      type: 'color-background',
                    },
                  },
                  {
                    id: 'mappings',
                    value: [
                      {
                        type: 'value',
                        options: {
                          firing: {
                            color: 'red',
                            index: 0,
                          },
                          pending: {
                            color: 'orange',
                            index: 1,
                          },
                        },
                      },
                    ],
                  },
                ],
              },
            ],
          },
          options: {
            showHeader: true,
            cellHeight: 'sm',
            footer: {
              show: false,
              reducer: ['sum'],
              fields: '',
            },
            sortBy: [
              {
                displayName: 'alertstate',
                desc: false,
              },
            ],
          },
          transformations: [
            {
              id: 'organize',
              options: {
                excludeByName: {
                  Time: true,
                  Value: true,
                  __name__: true,
                  job: true,
                },
                indexByName: {
                  alertstate: 0,
                  alertname: 1,
                  severity: 2,
                  [c.networkLabel]: 3,
                  instance: 4,
                  direction: 5,
                },
                renameByName: {},
              },
            },
          ],
          id: 20,
          gridPos: {
            h: 7,
            w: 24,
            x: 0,
            y: 50,
          },
        },
        {
          type: 'table',
          title: 'CPU against the reference',
          description: "Each peer's CPU against the sizing guide's reference box (Xeon 8375C), per direction: the WireGuard work one of its cores does over what one core of the reference did (headroom_cpu_speed_ratio, from the cost per packet the peer learned; a peer that has not learned it yet is not listed). Slowest first: at 0.5 a peer carries half the guide's figure for its size. `headroom size --from-status http://<instance>` sizes on that CPU.",
          datasource: ds,
          targets: [
            {
              refId: 'A',
              datasource: ds,
              editorMode: 'code',
              expr: block(|||
                sort(
                  headroom_cpu_speed_ratio
                  * on (job, instance) group_left (%(networkLabel)s, %(siteLabel)s) headroom_peer_info{%(networkLabel)s=~"$network", %(siteLabel)s=~"$site"}
                )
              ||| % f),
              legendFormat: '',
              range: false,
              instant: true,
              format: 'table',
            },
          ],
          fieldConfig: {
            defaults: {
              unit: 'suffix:x',
              decimals: 2,
              custom: {
                align: 'auto',
                cellOptions: {
                  type: 'auto',
                },
                filterable: true,
              },
              thresholds: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'green',
                    value: null,
                  },
                ],
              },
              mappings: [],
              links: [
                {
                  title: 'Open peer ${__data.fields.instance}',
                  url: '/d/headroom-peer?var-instance=${__data.fields.instance}&${datasource:queryparam}',
                  targetBlank: false,
                },
              ],
            },
            overrides: [],
          },
          options: {
            showHeader: true,
            cellHeight: 'sm',
            footer: {
              show: false,
              reducer: ['sum'],
              fields: '',
            },
            sortBy: [
              {
                displayName: 'speed vs reference',
                desc: false,
              },
            ],
          },
          transformations: [
            {
              id: 'organize',
              options: {
                excludeByName: {
                  Time: true,
                  job: true,
                  __name__: true,
                },
                indexByName: {
                  instance: 0,
                  [c.networkLabel]: 1,
                  [c.siteLabel]: 2,
                  direction: 3,
                  Value: 4,
                },
                renameByName: {
                  Value: 'speed vs reference',
                },
              },
            },
          ],
          id: 24,
          gridPos: {
            h: 8,
            w: 24,
            x: 0,
            y: 77,
          },
        },
      ] + netbirdPanels,
    },
  },
}
