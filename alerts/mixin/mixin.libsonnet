// headroom's monitoring mixin: recording rules, alerts and Grafana dashboards, all configured by _config
// (config.libsonnet). alerts/mixin/render.sh writes alerts/headroom-rules.yml and dashboards/*.json from it.
(import 'config.libsonnet') +
(import 'rules.libsonnet') +
(import 'alerts.libsonnet') +
(import 'dashboards.libsonnet')
