// Command render renders a Helm chart without the helm binary, with the engines Helm itself uses:
// Go's text/template and Sprig (github.com/Masterminds/sprig). It adds what Helm adds on top of them:
// .Values (chart defaults deep-merged with -f files and --set), .Release, .Chart (from Chart.yaml),
// .Capabilities, .Template, the partials of _*.tpl files, and the functions include, tpl, toYaml,
// fromYaml, toJson, fromJson, required, fail and lookup (always empty, as in `helm template`); env and
// expandenv are removed, missing keys render empty, as in Helm.
//
// Build (Debian: golang-go + golang-github-masterminds-sprig-dev, offline):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o render ./helm/tools/render
//
// Usage:
//
//	render --chart helm/gaia [-f values.yaml]... [--set a.b=c]... [--name gaia] [--namespace ns] [--format json|yaml]
//
// JSON output: {"manifests":[{"template":..., "content":..., "documents":[...], "error":...}], "notes":...}
// where documents are the YAML documents of the rendered file, parsed.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	yamlv2 "gopkg.in/yaml.v2"
	yamlv3 "gopkg.in/yaml.v3"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// apiVersions mirrors Helm's .Capabilities.APIVersions (with its Has method).
type apiVersions []string

func (a apiVersions) Has(v string) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

type kubeVersion struct {
	Version, Major, Minor, GitVersion string
}

type capabilities struct {
	KubeVersion kubeVersion
	APIVersions apiVersions
	HelmVersion map[string]string
}

// files mirrors the part of Helm's .Files used by charts: Get and Glob-free AsConfig are not needed here.
type files map[string][]byte

func (f files) Get(name string) string { return string(f[name]) }

type manifest struct {
	Template  string        `json:"template"`
	Content   string        `json:"content"`
	Documents []interface{} `json:"documents"`
	Error     string        `json:"error,omitempty"`
}

type output struct {
	Manifests []manifest `json:"manifests"`
	Notes     string     `json:"notes"`
}

func main() {
	var valueFiles, sets multiFlag
	chartDir := flag.String("chart", "", "chart directory")
	name := flag.String("name", "gaia", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	kube := flag.String("kube-version", "1.29.0", "Kubernetes version for .Capabilities")
	format := flag.String("format", "json", "json | yaml")
	flag.Var(&valueFiles, "f", "values file (repeatable)")
	flag.Var(&valueFiles, "values", "values file (repeatable)")
	flag.Var(&sets, "set", "key.path=value (repeatable)")
	flag.Parse()
	if *chartDir == "" {
		fail(errors.New("--chart is required"))
	}
	out, err := render(*chartDir, valueFiles, sets, *name, *namespace, *kube)
	if err != nil {
		fail(err)
	}
	if *format == "yaml" {
		// Like `helm template`: one "# Source:" header per non-empty document.
		for _, m := range out.Manifests {
			for _, doc := range docSeparator.Split(m.Content, -1) {
				if strings.TrimSpace(stripComments(doc)) == "" {
					continue
				}
				fmt.Printf("---\n# Source: %s\n%s\n", m.Template, strings.Trim(doc, "\n"))
			}
		}
		return
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "Error:", err)
	os.Exit(1)
}

// readYAML parses YAML the way Helm does (through JSON): maps have string keys, numbers are float64.
func readYAML(data []byte) (map[string]interface{}, error) {
	var raw interface{}
	if err := yamlv2.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	j, err := json.Marshal(normalize(raw))
	if err != nil {
		return nil, err
	}
	out := map[string]interface{}{}
	if string(j) == "null" {
		return out, nil
	}
	if err := json.Unmarshal(j, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		m := map[string]interface{}{}
		for k, val := range t {
			m[fmt.Sprint(k)] = normalize(val)
		}
		return m
	case map[string]interface{}:
		m := map[string]interface{}{}
		for k, val := range t {
			m[k] = normalize(val)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(t))
		for i, val := range t {
			l[i] = normalize(val)
		}
		return l
	default:
		return v
	}
}

// merge overlays src on dst like Helm's value coalescing: maps merge recursively, null deletes a key.
func merge(dst, src map[string]interface{}) map[string]interface{} {
	for k, v := range src {
		if v == nil {
			delete(dst, k)
			continue
		}
		if sm, ok := v.(map[string]interface{}); ok {
			if dm, ok := dst[k].(map[string]interface{}); ok {
				dst[k] = merge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
	return dst
}

func parseSetValue(s string) interface{} {
	switch s {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return float64(i)
	}
	return s
}

func applySet(values map[string]interface{}, expr string) error {
	eq := strings.Index(expr, "=")
	if eq <= 0 {
		return fmt.Errorf("--set %q: expected key=value", expr)
	}
	keys := strings.Split(expr[:eq], ".")
	cur := values
	for _, k := range keys[:len(keys)-1] {
		next, ok := cur[k].(map[string]interface{})
		if !ok {
			next = map[string]interface{}{}
			cur[k] = next
		}
		cur = next
	}
	v := parseSetValue(expr[eq+1:])
	if v == nil {
		delete(cur, keys[len(keys)-1])
	} else {
		cur[keys[len(keys)-1]] = v
	}
	return nil
}

func toYAML(v interface{}) string {
	data, err := yamlv2.Marshal(v)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

func fromYAML(s string) map[string]interface{} {
	m, err := readYAML([]byte(s))
	if err != nil {
		return map[string]interface{}{"Error": err.Error()}
	}
	return m
}

func toJSON(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(data)
}

func fromJSON(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func render(chartDir string, valueFiles, sets []string, name, namespace, kube string) (*output, error) {
	chartYAML, err := os.ReadFile(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return nil, err
	}
	chartMeta, err := readYAML(chartYAML)
	if err != nil {
		return nil, fmt.Errorf("Chart.yaml: %w", err)
	}
	chartName, _ := chartMeta["name"].(string)
	if chartName == "" {
		return nil, errors.New("Chart.yaml: name is required")
	}
	chart := map[string]interface{}{}
	for k, v := range chartMeta {
		switch k {
		case "apiVersion":
			chart["APIVersion"] = v
		case "appVersion":
			chart["AppVersion"] = v
		case "kubeVersion":
			chart["KubeVersion"] = v
		default:
			chart[strings.ToUpper(k[:1])+k[1:]] = v
		}
	}

	values := map[string]interface{}{}
	if data, err := os.ReadFile(filepath.Join(chartDir, "values.yaml")); err == nil {
		if values, err = readYAML(data); err != nil {
			return nil, fmt.Errorf("values.yaml: %w", err)
		}
	}
	for _, f := range valueFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		extra, err := readYAML(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		values = merge(values, extra)
	}
	for _, s := range sets {
		if err := applySet(values, s); err != nil {
			return nil, err
		}
	}

	parts := strings.SplitN(strings.TrimPrefix(kube, "v"), ".", 3)
	for len(parts) < 2 {
		parts = append(parts, "0")
	}
	caps := capabilities{
		KubeVersion: kubeVersion{Version: "v" + strings.TrimPrefix(kube, "v"), Major: parts[0], Minor: parts[1], GitVersion: "v" + strings.TrimPrefix(kube, "v")},
		APIVersions: apiVersions{"v1", "apps/v1", "batch/v1", "policy/v1", "autoscaling/v2", "networking.k8s.io/v1", "rbac.authorization.k8s.io/v1"},
		HelmVersion: map[string]string{"Version": "v3.16.0"},
	}

	// Every file under templates/, named like Helm names them: <chart>/templates/<path>.
	var names []string
	sources := map[string]string{}
	chartFiles := files{}
	templatesDir := filepath.Join(chartDir, "templates")
	err = filepath.WalkDir(templatesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(templatesDir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n := path.Join(chartName, "templates", filepath.ToSlash(rel))
		names = append(names, n)
		sources[n] = string(data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)

	root := template.New("gotpl")
	funcs := sprig.TxtFuncMap()
	delete(funcs, "env")
	delete(funcs, "expandenv")
	includeDepth := 0
	funcs["toYaml"] = toYAML
	funcs["fromYaml"] = fromYAML
	funcs["toJson"] = toJSON
	funcs["fromJson"] = fromJSON
	funcs["required"] = func(msg string, v interface{}) (interface{}, error) {
		if v == nil {
			return nil, errors.New(msg)
		}
		if s, ok := v.(string); ok && s == "" {
			return nil, errors.New(msg)
		}
		return v, nil
	}
	funcs["fail"] = func(msg string) (string, error) { return "", errors.New(msg) }
	funcs["lookup"] = func(apiVersion, kind, namespace, name string) (map[string]interface{}, error) {
		return map[string]interface{}{}, nil
	}
	funcs["include"] = func(n string, data interface{}) (string, error) {
		includeDepth++
		defer func() { includeDepth-- }()
		if includeDepth > 1000 {
			return "", fmt.Errorf("include %q: recursion too deep", n)
		}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, n, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err = t.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, data); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	root.Funcs(funcs).Option("missingkey=zero")
	for _, n := range names {
		if _, err := root.New(n).Parse(sources[n]); err != nil {
			return nil, err
		}
	}

	out := &output{Manifests: []manifest{}}
	for _, n := range names {
		base := path.Base(n)
		if strings.HasPrefix(base, "_") {
			continue
		}
		data := map[string]interface{}{
			"Values":       values,
			"Release":      map[string]interface{}{"Name": name, "Namespace": namespace, "Service": "Helm", "IsInstall": true, "IsUpgrade": false, "Revision": 1},
			"Chart":        chart,
			"Capabilities": caps,
			"Template":     map[string]interface{}{"Name": n, "BasePath": path.Join(chartName, "templates")},
			"Files":        chartFiles,
		}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, n, data); err != nil {
			return nil, err
		}
		content := strings.ReplaceAll(buf.String(), "<no value>", "")
		if base == "NOTES.txt" {
			out.Notes = content
			continue
		}
		if !strings.HasSuffix(base, ".yaml") && !strings.HasSuffix(base, ".yml") {
			continue
		}
		m := manifest{Template: n, Content: content, Documents: []interface{}{}}
		dec := yamlv3.NewDecoder(strings.NewReader(content))
		for {
			var doc interface{}
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				m.Error = err.Error()
				break
			}
			if doc != nil {
				m.Documents = append(m.Documents, normalize(doc))
			}
		}
		out.Manifests = append(out.Manifests, m)
	}
	return out, nil
}

var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// stripComments drops comment-only lines (a document of comments alone is empty).
func stripComments(doc string) string {
	var out []string
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
