package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// strategicMergePatch is the content type of a strategic merge patch.
const strategicMergePatch = "application/strategic-merge-patch+json"

// response is an API server's answer.
type response struct {
	status   int
	body     []byte
	warnings []string // the Warning headers, such as unknown fields under fieldValidation=Warn
}

// do sends one request and reads the whole answer.
func (s *server) do(method, path string, query url.Values, contentType string, body []byte) (response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	u := s.url + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, body: b, warnings: resp.Header.Values("Warning")}, err
}

// mustDo is do for tests: a transport error or another status than want
// fails the test with the server's message.
func (s *server) mustDo(t testing.TB, want int, method, path string, query url.Values, contentType string, body []byte) response {
	t.Helper()
	r, err := s.do(method, path, query, contentType, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if r.status != want {
		t.Fatalf("%s %s?%s: status %d, want %d: %s\nbody sent: %s", method, path, query.Encode(), r.status, want, r.body, body)
	}
	return r
}

// send sends obj and returns the answer, whatever its status.
func (s *server) send(t testing.TB, method, path string, obj object) response {
	t.Helper()
	r, err := s.do(method, path, nil, "application/json", encode(t, obj))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// resourceInfo is what discovery says of a kind.
type resourceInfo struct {
	plural     string
	namespaced bool
}

var (
	discoveryMu sync.Mutex
	discovered  = map[string]map[string]resourceInfo{} // apiVersion -> kind -> resource
)

// forgetDiscovery drops what discovery said of apiVersion, after a
// CustomResourceDefinition changed it.
func forgetDiscovery(apiVersion string) {
	discoveryMu.Lock()
	defer discoveryMu.Unlock()
	delete(discovered, apiVersion)
}

// resource finds apiVersion and kind in the server's discovery documents.
func (s *server) resource(apiVersion, kind string) (resourceInfo, error) {
	discoveryMu.Lock()
	defer discoveryMu.Unlock()
	kinds, ok := discovered[apiVersion]
	if !ok {
		path := "/apis/" + apiVersion
		if !strings.Contains(apiVersion, "/") {
			path = "/api/" + apiVersion
		}
		r, err := s.do(http.MethodGet, path, nil, "", nil)
		if err != nil {
			return resourceInfo{}, err
		}
		if r.status != http.StatusOK {
			return resourceInfo{}, fmt.Errorf("discovery of %s: status %d: %s", apiVersion, r.status, r.body)
		}
		var list struct {
			Resources []struct {
				Name       string `json:"name"`
				Kind       string `json:"kind"`
				Namespaced bool   `json:"namespaced"`
			} `json:"resources"`
		}
		if err := json.Unmarshal(r.body, &list); err != nil {
			return resourceInfo{}, fmt.Errorf("discovery of %s: %w", apiVersion, err)
		}
		kinds = map[string]resourceInfo{}
		for _, res := range list.Resources {
			if !strings.Contains(res.Name, "/") { // not a subresource
				kinds[res.Kind] = resourceInfo{plural: res.Name, namespaced: res.Namespaced}
			}
		}
		discovered[apiVersion] = kinds
	}
	info, ok := kinds[kind]
	if !ok {
		return resourceInfo{}, fmt.Errorf("the server serves no kind %s in %s", kind, apiVersion)
	}
	return info, nil
}

// objectPath is the URL path of an object's collection (name empty) or of
// the object.
func (s *server) objectPath(t testing.TB, apiVersion, kind, namespace, name string) string {
	t.Helper()
	info, err := s.resource(apiVersion, kind)
	if err != nil {
		t.Fatal(err)
	}
	p := "/apis/" + apiVersion
	if !strings.Contains(apiVersion, "/") {
		p = "/api/" + apiVersion
	}
	if info.namespaced {
		p += "/namespaces/" + namespace
	}
	p += "/" + info.plural
	if name != "" {
		p += "/" + name
	}
	return p
}

// namespaceCount numbers the namespaces tests create.
var namespaceCount struct {
	sync.Mutex
	n int
}

// newNamespace creates a namespace for one test, with the "default"
// service account that a cluster's controller manager would create (the
// ServiceAccount admission plugin needs it for pods).
func (s *server) newNamespace(t testing.TB) string {
	t.Helper()
	namespaceCount.Lock()
	namespaceCount.n++
	name := fmt.Sprintf("e2e-%d", namespaceCount.n)
	namespaceCount.Unlock()
	ns := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, name)
	s.mustDo(t, http.StatusCreated, http.MethodPost, "/api/v1/namespaces", nil, "application/json", []byte(ns))
	sa := `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`
	s.mustDo(t, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/"+name+"/serviceaccounts", nil, "application/json", []byte(sa))
	return name
}

// withValidation is the query of a write under a fieldValidation level;
// "" leaves the server's default.
func withValidation(level string, q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = v
	}
	if level != "" {
		out.Set("fieldValidation", level)
	}
	return out
}
