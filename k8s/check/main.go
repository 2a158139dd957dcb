// Command check validates what kubernetes-validate cannot: the Prometheus Operator's custom
// resources and the queries of the monitoring files, with the projects' own Go code.
//
//	check crds FILE...       every ServiceMonitor and PrometheusRule in the (multi-document)
//	                         YAML files is decoded strictly into the Prometheus Operator's
//	                         monitoring.coreos.com/v1 types (an unknown or mistyped field fails);
//	                         each PrometheusRule's groups then go through Prometheus's rule
//	                         parser, rulefmt, which is what `promtool check rules` runs (rule
//	                         names, labels, templates, every expression parsed as PromQL).
//	                         Other kinds are left to kubernetes-validate.
//	check dashboard FILE...  a Grafana dashboard: valid JSON, and every panel target's PromQL
//	                         parses once the dashboard's variables are replaced by sample values.
//
// It exits 1 and names the file and object when anything fails. k8s/validate builds and runs it.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	goyaml "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

var promql = parser.NewParser(parser.Options{})

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: check crds FILE... | check dashboard FILE...")
		os.Exit(2)
	}
	var failures []string
	for _, file := range os.Args[2:] {
		var errs []error
		switch os.Args[1] {
		case "crds":
			errs = checkCustomResources(file)
		case "dashboard":
			errs = checkDashboard(file)
		default:
			fmt.Fprintf(os.Stderr, "check: unknown command %q\n", os.Args[1])
			os.Exit(2)
		}
		for _, err := range errs {
			failures = append(failures, fmt.Sprintf("%s: %v", file, err))
		}
	}
	for _, f := range failures {
		fmt.Fprintln(os.Stderr, "ERROR", f)
	}
	if len(failures) > 0 {
		os.Exit(1)
	}
}

// checkCustomResources checks every ServiceMonitor and PrometheusRule document of a YAML stream.
func checkCustomResources(file string) []error {
	content, err := os.ReadFile(file)
	if err != nil {
		return []error{err}
	}
	docs, err := splitDocuments(content)
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, doc := range docs {
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal(doc, &head); err != nil {
			errs = append(errs, err)
			continue
		}
		what := strings.ToLower(head.Kind) + "/" + head.Metadata.Name
		if !strings.HasPrefix(head.APIVersion, "monitoring.coreos.com/") {
			continue
		}
		if head.APIVersion != monitoringv1.SchemeGroupVersion.String() {
			errs = append(errs, fmt.Errorf("%s: apiVersion %s; only %s is checked", what, head.APIVersion, monitoringv1.SchemeGroupVersion))
			continue
		}
		var problems []error
		switch head.Kind {
		case monitoringv1.ServiceMonitorsKind:
			var sm monitoringv1.ServiceMonitor
			problems = strict(doc, &sm)
			if len(problems) == 0 && len(sm.Spec.Endpoints) == 0 {
				problems = append(problems, errors.New("spec.endpoints is empty: nothing would be scraped"))
			}
		case monitoringv1.PrometheusRuleKind:
			var pr monitoringv1.PrometheusRule
			problems = strict(doc, &pr)
			if len(problems) == 0 {
				problems = rules(doc)
			}
		default:
			problems = []error{fmt.Errorf("kind %s is not checked here", head.Kind)}
		}
		for _, p := range problems {
			errs = append(errs, fmt.Errorf("%s: %w", what, p))
		}
		if len(problems) == 0 {
			fmt.Printf("INFO %s passed for resource %s against %s\n", file, what, monitoringv1.SchemeGroupVersion)
		}
	}
	return errs
}

// strict decodes a document into v, refusing fields the type does not have.
func strict(doc []byte, v any) []error {
	if err := yaml.UnmarshalStrict(doc, v); err != nil {
		return []error{err}
	}
	return nil
}

// rules runs a PrometheusRule's spec (a rule file's content: groups) through rulefmt.
func rules(doc []byte) []error {
	var pr struct {
		Spec json.RawMessage `json:"spec"`
	}
	if err := yaml.Unmarshal(doc, &pr); err != nil {
		return []error{err}
	}
	ruleFile, err := yaml.JSONToYAML(pr.Spec)
	if err != nil {
		return []error{err}
	}
	groups, errs := rulefmt.Parse(ruleFile, false, model.UTF8Validation, promql, slog.New(slog.DiscardHandler))
	if len(errs) > 0 {
		return errs
	}
	n := 0
	for _, g := range groups.Groups {
		n += len(g.Rules)
	}
	if n == 0 {
		return []error{errors.New("no rules")}
	}
	return nil
}

// Grafana variables: $name, ${name} and ${name:format}.
var variable = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)(?::[^}]*)?\}|\$([A-Za-z0-9_]+)`)

// checkDashboard parses a Grafana dashboard and every PromQL expression in its panels.
func checkDashboard(file string) []error {
	content, err := os.ReadFile(file)
	if err != nil {
		return []error{err}
	}
	var dashboard struct {
		Title  string  `json:"title"`
		UID    string  `json:"uid"`
		Panels []panel `json:"panels"`
	}
	if err := json.Unmarshal(content, &dashboard); err != nil {
		return []error{fmt.Errorf("not valid dashboard JSON: %w", err)}
	}
	if dashboard.Title == "" || dashboard.UID == "" {
		return []error{errors.New("the dashboard needs a title and a uid")}
	}
	var errs []error
	queries := 0
	var walk func([]panel)
	walk = func(panels []panel) {
		for _, p := range panels {
			for _, t := range p.Targets {
				if t.Expr == "" {
					continue
				}
				queries++
				expr := variable.ReplaceAllStringFunc(t.Expr, sample)
				if _, err := promql.ParseExpr(expr); err != nil {
					errs = append(errs, fmt.Errorf("panel %q, query %s: %w", p.Title, t.RefID, err))
				}
			}
			walk(p.Panels)
		}
	}
	walk(dashboard.Panels)
	if queries == 0 {
		errs = append(errs, errors.New("no PromQL queries found in the panels"))
	}
	if len(errs) == 0 {
		fmt.Printf("INFO %s passed: dashboard %q, %d queries parse as PromQL\n", file, dashboard.Title, queries)
	}
	return errs
}

type panel struct {
	Title   string `json:"title"`
	Targets []struct {
		Expr  string `json:"expr"`
		RefID string `json:"refId"`
	} `json:"targets"`
	Panels []panel `json:"panels"`
}

// sample stands in for a Grafana variable: a duration for the interval ones, a label value else.
func sample(v string) string {
	name := strings.Trim(strings.SplitN(strings.TrimPrefix(v, "$"), ":", 2)[0], "{}")
	if strings.Contains(name, "interval") || name == "__range" {
		return "5m"
	}
	return "sample"
}

// splitDocuments splits a YAML stream into its documents, re-encoded one by one.
func splitDocuments(content []byte) ([][]byte, error) {
	dec := goyaml.NewDecoder(bytes.NewReader(content))
	var docs [][]byte
	for {
		var node goyaml.Node
		err := dec.Decode(&node)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		out, err := goyaml.Marshal(&node)
		if err != nil {
			return nil, err
		}
		docs = append(docs, out)
	}
}
