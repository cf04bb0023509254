package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofio/gofio/report"
)

// chromium returns the headless browser of the report tests (Debian's
// chromium package; .ci/run installs it), skipping the test without one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install chromium)")
	return ""
}

// browse opens page in headless Chromium with extra flags and returns its
// stdout and stderr. Its network log goes to netlog.
func browse(t *testing.T, bin, page, netlog string, flags ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0", "--log-net-log=" + netlog}, flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", flags, err, errb.String())
	}
	return out.String(), errb.String()
}

// pageRequests returns the URLs a page asked the network for, from
// Chromium's network log: requests started with the file page's origin
// ("null") or isolation key (the browser's own background requests have
// neither).
func pageRequests(t *testing.T, netlog string) []string {
	t.Helper()
	b, err := os.ReadFile(netlog)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Constants struct {
			Types map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int            `json:"type"`
			Params map[string]any `json:"params"`
		} `json:"events"`
	}
	// Chromium may end the log without closing it when it exits.
	s := strings.TrimSpace(string(b))
	if !strings.HasSuffix(s, "}") {
		s = strings.TrimSuffix(s, ",") + "]}"
	}
	if err := json.Unmarshal([]byte(s), &log); err != nil {
		t.Fatalf("reading Chromium's network log: %v", err)
	}
	start, ok := log.Constants.Types["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatal("network log without URL_REQUEST_START_JOB events")
	}
	var urls []string
	for _, e := range log.Events {
		if e.Type != start {
			continue
		}
		url, _ := e.Params["url"].(string)
		ini, _ := e.Params["initiator"].(string)
		nik, _ := e.Params["network_isolation_key"].(string)
		if url != "" && !strings.HasPrefix(url, "file:") && (ini == "null" || strings.HasPrefix(nik, "file://")) {
			urls = append(urls, url)
		}
	}
	return urls
}

var chartAttrs = regexp.MustCompile(`<svg [^>]*data-chart="([a-z-]+)"(?: data-job="([^"]*)")?(?: data-dir="([a-z]+)")?`)

// checkInBrowser opens page in headless Chromium and checks it: no
// console message at all (the page has no script; a blocked load would
// be reported there), no network request, every chart of every job and
// direction in the DOM Chromium built; it writes phone-sized and
// desktop-sized screenshots into the test's temp dir.
func checkInBrowser(t *testing.T, page string, want map[string][]string) {
	bin := chromium(t)
	dir := t.TempDir()
	netlog := filepath.Join(dir, "net.json")
	dom, errs := browse(t, bin, page, netlog, "--dump-dom")
	for _, l := range strings.Split(errs, "\n") {
		if strings.Contains(l, ":CONSOLE") {
			t.Errorf("console message: %s", l)
		}
	}
	if urls := pageRequests(t, netlog); len(urls) > 0 {
		t.Errorf("the page made network requests: %q", urls)
	}
	got := map[string]bool{}
	for _, m := range chartAttrs.FindAllStringSubmatch(dom, -1) {
		got[m[2]+"/"+m[3]+"/"+m[1]] = true
	}
	for job, dirs := range want {
		for _, d := range dirs {
			for _, c := range report.DirCharts {
				if !got[job+"/"+d+"/"+c] {
					t.Errorf("no %s chart for %s %s in the DOM", c, job, d)
				}
			}
		}
		for _, c := range report.JobCharts {
			if !got[job+"//"+c] {
				t.Errorf("no %s chart for %s in the DOM", c, job)
			}
		}
	}
	if strings.Contains(dom, "data-missing") {
		t.Errorf("the page says data are missing")
	}
	for _, size := range []string{"412,915", "1280,2400"} {
		shot := filepath.Join(dir, "report-"+strings.ReplaceAll(size, ",", "x")+".png")
		browse(t, bin, page, filepath.Join(dir, "net-shot.json"), "--hide-scrollbars", "--window-size="+size, "--screenshot="+shot)
		if fi, err := os.Stat(shot); err != nil || fi.Size() < 10000 {
			t.Errorf("screenshot %s: %v (%d bytes)", shot, err, fi.Size())
		}
		t.Logf("screenshot: %s", shot)
	}
}

// TestHTMLReportInBrowser renders the report of a real gofio run
// (--html) and of a captured fio 3.33 json+ result with its logs
// (--report=) and checks both in headless Chromium.
func TestHTMLReportInBrowser(t *testing.T) {
	chromium(t)
	dir := t.TempDir()
	live := filepath.Join(dir, "live.html")
	st, _, errs := gofio(t, "--name=a", "--ioengine=null", "--size=1g", "--bs=4k", "--rw=randrw", "--time_based", "--runtime=2s",
		"--rate_iops=500", "--status-interval=500ms", "--html="+live, "--output-format=json", "--output="+filepath.Join(dir, "a.json"))
	if st != 0 {
		t.Fatalf("run: status %d: %s", st, errs)
	}

	fixture := filepath.Join("..", "..", "report", "testdata")
	logs, _ := filepath.Glob(filepath.Join(fixture, "randrw_*.log"))
	fromFio := filepath.Join(dir, "fio.html")
	args := append([]string{"--report=" + filepath.Join(fixture, "fio-randrw.json"), "--html=" + fromFio}, logs...)
	if st, _, errs := gofio(t, args...); st != 0 {
		t.Fatalf("--report: status %d: %s", st, errs)
	}
	// The two pages side by side (go test's time): the browsers are
	// apart, each with a profile and temp dir of its own.
	t.Run("gofio run", func(t *testing.T) {
		t.Parallel()
		checkInBrowser(t, live, map[string][]string{"a": {"read", "write"}})
	})
	t.Run("fio 3.33 json+", func(t *testing.T) {
		t.Parallel()
		checkInBrowser(t, fromFio, map[string][]string{"randrw": {"read", "write"}})
	})
}
