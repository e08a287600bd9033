package main

// cliCases are the end-to-end runs of TestGolden.
var cliCases = append(kindCases(), []cliCase{
	// real manifests: several documents, inline patches, flags
	{name: "diff-multi", args: "diff " + multi + "original.yaml " + multi + "modified.yaml", warns: true},
	{name: "diff-multi-json", args: "diff -o json " + multi + "original.yaml " + multi + "modified.yaml", warns: true},
	{name: "three-way-multi", args: "three-way " + multi + "original.yaml " + multi + "modified.yaml " + multi + "current.yaml", warns: true},
	{name: "three-way-multi-conflicts", args: "three-way --conflicts " + multi + "original.yaml " + multi + "modified.yaml " + multi + "current.yaml", exit: 1},
	{name: "error-lookalike-unknown-field", args: "diff --type Deployment " + kdOrig + " " + kdMod, exit: 2},
	{name: "error-kinds-differ", args: "diff " + kinds + "job-original.yaml " + kinds + "cronjob-modified.yaml", exit: 2},
	{name: "error-multi-bad-patch", args: "apply " + multi + "original.yaml " + td + "errors/multi-bad-patch.yaml", exit: 2},
	{name: "apply-multi", args: "apply " + multi + "original.yaml " + multi + "patch.yaml"},
	{name: "apply-several", args: "apply " + multi + "original.yaml " + multi + "patch.yaml " + td + "apply/replicas-patch.yaml"},
	{name: "apply-several-stdin", args: "apply - " + multi + "patch.yaml " + td + "apply/replicas-patch.yaml", stdin: multi + "original.yaml"},
	{name: "error-apply-several-typo", args: "apply " + multi + "original.yaml " + multi + "patch.yaml " + td + "apply/typo-patch.yaml", exit: 2},
	{name: "usage-apply-one", args: "apply " + multi + "original.yaml", exit: 2},
	{name: "apply-inline", args: "apply " + kdOrig + " -p {\"spec\":{\"replicas\":5}}"},
	{name: "apply-inline-stdin", args: "apply -o json - --patch {\"spec\":{\"paused\":true}}", stdin: kdOrig},
	{name: "diff-exit-code", args: "diff --exit-code " + kdOrig + " " + kdMod, exit: 1, printsOnFail: true},
	{name: "diff-exit-code-same", args: "diff --exit-code " + kdOrig + " " + kdOrig},
	{name: "diff-exit-code-invalid", args: "diff --exit-code " + kdOrig + " " + td + "errors/invalid.yaml", exit: 2},
	{name: "diff-exit-code-unknown-kind", args: "diff --exit-code " + td + "errors/unknown-kind.yaml " + td + "errors/unknown-kind-modified.yaml", exit: 2},
	{name: "three-way-exit-code", args: "three-way --exit-code " + multi + "original.yaml " + multi + "modified.yaml " + multi + "current.yaml", exit: 1, printsOnFail: true},
	{name: "three-way-exit-code-same", args: "three-way --exit-code " + kdOrig + " " + kdOrig + " " + kdOrig},
	{name: "three-way-conflicts-exit-code", args: "three-way --conflicts --exit-code " + exOrig + " " + exMod + " " + exCur + " --type Deployment", exit: 1},
	{name: "diff-output-attached", args: "diff -ojson " + kdOrig + " " + kdMod},
	{name: "diff-kind-deployment-all", args: "diff --directives all " + kdOrig + " " + kdMod},
	{name: "three-way-example-default", args: "three-way " + exOrig + " " + exMod + " " + exCur},
	{name: "diff-merge-unknown", args: "diff --validate=warn --merge-unknown " + td + "errors/unknown-field-original.yaml " + td + "errors/unknown-field-modified.yaml", warns: true},
	{name: "error-unknown-kind", args: "diff " + td + "errors/unknown-kind.yaml " + td + "errors/unknown-kind-modified.yaml", exit: 2},
	{name: "error-unknown-field-merge", args: "diff --validate ignore " + td + "errors/unknown-field-original.yaml " + td + "errors/unknown-field-modified.yaml", exit: 2},
	{name: "error-unknown-field", args: "diff " + td + "errors/unknown-field-original.yaml " + td + "errors/unknown-field-modified.yaml", exit: 2},
	{name: "error-type-against-kind", args: "diff --type Deployment " + kinds + "cronjob-original.yaml " + kinds + "cronjob-modified.yaml", exit: 2},
	{name: "error-tab", args: "apply " + td + "errors/tab.yaml " + kinds + "configmap-modified.yaml", exit: 2},
	{name: "error-not-a-patch", args: "apply " + kdOrig + " -p [1,2]", exit: 2},
	{name: "error-multi-unnamed", args: "apply " + multi + "original.yaml " + td + "apply/deployment-patch.yaml", exit: 2},
	{name: "error-schema-unreadable", args: "diff --schema " + td + "none.yaml " + kdOrig + " " + kdMod, exit: 2},
	{name: "error-schema-invalid", args: "diff --schema " + kdOrig + " " + kdOrig + " " + kdMod, exit: 2},

	// namespaces: manifests without one pair with live objects in
	// "default" or -n's; nothing unmatched passes silently
	{name: "three-way-ns-default", args: "three-way --schema " + ns + "crds.yaml " + ns + "app.yaml " + ns + "app-modified.yaml " + ns + "live.yaml", warns: true},
	{name: "three-way-ns-exit-code", args: "three-way --exit-code --schema " + ns + "crds.yaml " + ns + "app.yaml " + ns + "app-modified.yaml " + ns + "live.yaml", exit: 1, printsOnFail: true},
	{name: "three-way-ns-flag", args: "three-way -n prod --schema " + ns + "crds.yaml " + ns + "app.yaml " + ns + "app-modified.yaml " + ns + "live-prod.yaml", warns: true},
	{name: "three-way-ns-unpaired", args: "three-way --schema " + ns + "crds.yaml " + ns + "app.yaml " + ns + "app-modified.yaml " + ns + "live-prod.yaml", warns: true},
	{name: "diff-ns-new-object", args: "diff --exit-code --schema " + ns + "crds.yaml " + ns + "app.yaml " + ns + "app-modified.yaml", exit: 1, printsOnFail: true},
	{name: "apply-ns-default", args: "apply --schema " + ns + "crds.yaml " + ns + "live.yaml " + ns + "patch.yaml"},
	{name: "apply-ns-flag", args: "apply --namespace=prod --schema " + ns + "crds.yaml " + ns + "live-prod.yaml " + ns + "patch.yaml"},
	{name: "error-apply-ns-other-namespace", args: "apply " + ns + "live-prod.yaml " + ns + "patch.yaml", exit: 2},
	{name: "error-apply-ns-flag-mismatch", args: "apply -n dev " + ns + "live-prod.yaml " + ns + "patch.yaml", exit: 2},
	{name: "error-apply-ns-typo", args: "apply --schema " + ns + "crds.yaml " + ns + "live.yaml " + ns + "patch-typo.yaml", exit: 2},
	{name: "error-apply-other-object", args: "apply " + kdOrig + " " + ns + "patch-other.yaml", exit: 2},
	{name: "error-cr-unserved-version", args: "diff --schema " + ns + "crds.yaml " + ns + "tenant-v1alpha1.yaml " + ns + "tenant-v1alpha1.yaml", exit: 2},
	{name: "error-cr-undefined-version", args: "diff --schema " + ns + "crds.yaml " + ns + "tenant-v2.yaml " + ns + "tenant-v2.yaml", exit: 2},

	// CustomResourceDefinitions among the documents give their kinds' schemas
	{name: "apply-cr-crd-in-input", args: "apply " + ns + "with-crd.yaml " + ns + "widget-patch.yaml"},
	{name: "apply-cr-crd-patched", args: "apply " + ns + "with-crd.yaml " + ns + "crd-patch.yaml"},
	{name: "error-cr-crd-in-input-typo", args: "apply " + ns + "with-crd.yaml " + ns + "widget-patch-typo.yaml", exit: 2},

	// List and typed ...List documents: their items are objects
	{name: "three-way-list-live", args: "three-way --schema " + ns + "crds.yaml " + ns + "app.yaml " + ns + "app-modified.yaml " + ns + "live-list.yaml", warns: true},
	{name: "apply-list", args: "apply --schema " + ns + "crds.yaml " + ns + "live-list.yaml " + ns + "patch.yaml"},
	{name: "apply-list-json", args: "apply -o json --schema " + ns + "crds.yaml " + ns + "live-list.yaml " + ns + "patch.yaml"},
	{name: "apply-rolelist", args: "apply " + ns + "rolelist.yaml " + ns + "rolelist-patch.yaml"},
	{name: "error-list-item-yaml11", args: "diff " + ns + "list-item-yaml11.yaml " + ns + "list-item-yaml11.yaml", exit: 2},
	{name: "error-list-patch-typo", args: "apply --schema " + ns + "crds.yaml " + ns + "live-list.yaml " + ns + "patch-typo.yaml", exit: 2},

	// smp fn: a KRM function for kustomize and kpt
	{name: "fn", args: "fn", stdin: fnd + "resourcelist.yaml"},
	{name: "fn-unmatched", args: "fn", stdin: fnd + "unmatched.yaml", exit: 1, printsOnFail: true},
	{name: "fn-invalid", args: "fn", stdin: fnd + "invalid.yaml", exit: 1, printsOnFail: true},
	{name: "fn-yaml11", args: "fn", stdin: fnd + "yaml11.yaml", exit: 1, printsOnFail: true},
	{name: "fn-wrong-config", args: "fn", stdin: fnd + "wrong-config.yaml", exit: 1, printsOnFail: true},
	{name: "error-fn-not-resourcelist", args: "fn", stdin: kdOrig, exit: 2},

	// smp apply - PATCH as a Helm post-renderer: the rendered chart on
	// standard input, as helm install --post-renderer writes it
	{name: "helm-post-renderer", args: "apply - " + td + "helm/patch.yaml", stdin: td + "helm/rendered.yaml"},
	{name: "error-helm-post-renderer-unmatched", args: "apply - " + ns + "patch.yaml", stdin: td + "helm/rendered.yaml", exit: 2},

	// --validate: unknown fields in what the user writes; scalars as the
	// schema says
	{name: "error-validate-typo", args: "apply " + kdOrig + " " + vd + "patch-typo.yaml", exit: 2},
	{name: "apply-validate-warn", args: "apply --validate=warn " + kdOrig + " " + vd + "patch-typo.yaml", warns: true},
	{name: "apply-validate-ignore", args: "apply --validate ignore " + kdOrig + " " + vd + "patch-typo.yaml"},
	{name: "usage-validate-bad", args: "apply --validate=lax " + kdOrig + " " + vd + "patch-typo.yaml", exit: 2},
	{name: "three-way-validate-current", args: "three-way " + kdOrig + " " + kdMod + " " + vd + "current-newer.yaml", warns: true},
	{name: "three-way-validate-current-ignore", args: "three-way --validate=ignore " + kdOrig + " " + kdMod + " " + vd + "current-newer.yaml"},
	{name: "error-validate-modified", args: "three-way " + kdOrig + " " + vd + "current-newer.yaml " + kdMod, exit: 2},
	{name: "apply-validate-preserve-unknown", args: "apply --schema " + ns + "crds.yaml " + vd + "tenant.yaml " + vd + "tenant-patch-ok.yaml"},
	{name: "error-validate-cr-typo", args: "apply --schema " + ns + "crds.yaml " + vd + "tenant.yaml " + vd + "tenant-patch.yaml", exit: 2},
	{name: "error-scalar-yaml11", args: "diff " + vd + "configmap.yaml " + vd + "configmap-yaml11.yaml", exit: 2},
	{name: "error-scalar-yaml11-ignore", args: "diff --validate=ignore " + vd + "configmap.yaml " + vd + "configmap-yaml11.yaml", exit: 2},
	{name: "error-scalar-yaml11-keys", args: "diff " + vd + "configmap-keys.yaml " + vd + "configmap-keys.yaml", exit: 2},
	{name: "diff-scalar-keys-quoted", args: "diff " + vd + "configmap-keys-quoted.yaml " + vd + "configmap.yaml"},
	{name: "diff-scalar-quoted", args: "diff " + vd + "configmap.yaml " + vd + "configmap-quoted.yaml"},
	{name: "error-scalar-json", args: "apply " + kdOrig + " " + vd + "env-patch.json", exit: 2},
	{name: "error-scalar-inline", args: "apply " + vd + `configmap.yaml -p {"data":{"host":off}}`, exit: 2},

	// the look-alike types of package fixtures
	{name: "diff-example", args: "diff --type Deployment " + exOrig + " " + exMod},
	{name: "diff-example-json", args: "diff --type Deployment -o json " + exOrig + " " + exMod},
	{name: "diff-example-kubernetes", args: "diff --type Deployment " + exOrig + " " + exMod + " --directives retainKeys"},
	{name: "diff-example-legacy", args: "diff --type Deployment --directives legacy " + exOrig + " " + exMod},
	{name: "diff-service", args: "diff --type Service " + td + "service/original.yaml " + td + "service/modified.yaml"},
	{name: "diff-service-skew-safe", args: "diff --type Service --skew-safe " + td + "service/original.yaml " + td + "service/modified.yaml"},
	{name: "diff-stdin", args: "diff --type Pod " + td + "pod/original.json -", stdin: td + "pod/modified.yaml"},
	{name: "diff-identical", args: "diff --type Deployment " + exOrig + " " + exOrig},

	// apply
	{name: "apply-example", args: "apply --type Deployment " + exOrig + " " + td + "apply/deployment-patch.yaml"},
	{name: "apply-stdin-json", args: "apply --type Deployment --output json " + exOrig + " -", stdin: td + "apply/deployment-patch.yaml"},
	{name: "apply-order-kubernetes", args: "apply --type SeedOrderedList -o json " + td + "seed/ordered-live.yaml " + td + "seed/ordered-patch.yaml"},
	{name: "apply-order-seed", args: "apply --type SeedOrderedList -o json --ordering seed " + td + "seed/ordered-live.yaml " + td + "seed/ordered-patch.yaml"},

	// three-way
	{name: "three-way-example-conflict", args: "three-way --conflicts --type Deployment " + exOrig + " " + exMod + " " + exCur, exit: 1},
	{name: "three-way-example-overwrite", args: "three-way --type Deployment " + exOrig + " " + exMod + " " + exCur + " --overwrite"},
	{name: "three-way-pod", args: "three-way --type Pod " + td + "pod/original.json " + td + "pod/modified.yaml " + td + "pod/current.yaml"},

	// explain
	{name: "explain-deployment", args: "explain --type Deployment"},
	{name: "explain-path", args: "explain --type Deployment spec.template.spec.containers[name=web].ports"},
	{name: "explain-union", args: "explain --type Deployment spec.strategy"},
	{name: "explain-flag-after-path", args: "explain strategy --type DeploymentSpec"},
	{name: "explain-map-value", args: "explain --type Pod spec.containers.resources.limits.cpu"},
	{name: "explain-unknown-field", args: "explain --type Pod spec.containers.foo", exit: 2},
	{name: "explain-into-scalar", args: "explain --type Pod spec.restartPolicy.x", exit: 2},
	{name: "explain-too-many", args: "explain --type Pod spec metadata", exit: 2},

	// explain and vet of real kinds, named as kubectl names them
	{name: "explain-kind-path", args: "explain deployment.spec.template.spec.containers[name=web].ports"},
	{name: "explain-short-name", args: "explain deploy.spec.strategy"},
	{name: "explain-resource-api-version", args: "explain events --api-version events.k8s.io/v1"},
	{name: "explain-crd", args: "explain crd.spec.versions"},
	{name: "explain-cr-schema", args: "explain --schema " + ns + "crds.yaml tenants.spec"},
	{name: "explain-cr-short-name", args: "explain --schema openapischema/testdata/certificate-crd.yaml cert.spec.usages"},
	{name: "error-explain-unknown-resource", args: "explain deploymentz.spec", exit: 2},
	{name: "error-explain-unknown-field", args: "explain pod.spec.containerz", exit: 2},
	{name: "vet-kind", args: "vet --schema openapischema/testdata/rollout-crd.yaml rollout"},
	{name: "vet-kind-builtin", args: "vet cm"},

	// vet
	{name: "vet-deployment", args: "vet --type Deployment"},
	{name: "vet-argument", args: "vet --type Pod spec", exit: 2},

	// invalid documents and patches: exit 2
	{name: "error-invalid-yaml", args: "apply --type Deployment " + exOrig + " " + td + "errors/invalid.yaml", exit: 2},
	{name: "error-not-object", args: "apply --type Deployment " + exOrig + " " + td + "errors/not-object.yaml", exit: 2},
	{name: "error-missing-merge-key", args: "apply --type Deployment " + exOrig + " " + td + "errors/missing-merge-key.yaml", exit: 2},
	{name: "error-unknown-directive", args: "apply --type Deployment " + exOrig + " " + td + "errors/unknown-directive.yaml", exit: 2},
	{name: "error-type-mismatch", args: "apply --type Deployment " + exOrig + " " + td + "errors/type-mismatch.yaml", exit: 2},
	{name: "error-two-documents", args: "apply --type Deployment " + exOrig + " " + td + "errors/two-documents.yaml", exit: 2},
	{name: "error-duplicate-key", args: "apply --type Deployment " + exOrig + " " + td + "errors/duplicate-key.yaml", exit: 2},
	{name: "error-diff-not-object", args: "diff --type Deployment " + exOrig + " " + td + "errors/not-object.yaml", exit: 2},

	// bad usage: exit 2
	{name: "usage-no-arguments", args: "", exit: 2},
	{name: "usage-unknown-command", args: "patch --type Deployment " + exOrig, exit: 2},
	{name: "usage-unknown-type", args: "diff --type deployment " + exOrig + " " + exMod, exit: 2},
	{name: "usage-missing-type", args: "explain", exit: 2},
	{name: "usage-unknown-flag", args: "diff --type Deployment --color " + exOrig + " " + exMod, exit: 2},
	{name: "usage-overwrite-on-diff", args: "diff --type Deployment --overwrite " + exOrig + " " + exMod, exit: 2},
	{name: "usage-bad-output", args: "diff --type Deployment -o xml " + exOrig + " " + exMod, exit: 2},
	{name: "usage-bad-ordering", args: "apply --type Deployment --ordering random " + exOrig + " " + exMod, exit: 2},
	{name: "usage-bad-directives", args: "diff --type Deployment --directives newest " + exOrig + " " + exMod, exit: 2},
	{name: "usage-too-few", args: "three-way --type Deployment " + exOrig + " " + exMod, exit: 2},
	{name: "usage-two-stdins", args: "diff --type Deployment - -", exit: 2},
	{name: "usage-missing-file", args: "diff --type Deployment " + example + "deployment-missing.yaml " + exMod, exit: 2},
	{name: "usage-directory", args: "apply --type Deployment " + exOrig + " " + example, exit: 2},

	// help: exit 0, on standard output
	{name: "help", args: "help"},
	{name: "help-dash-h", args: "-h"},
	{name: "help-command", args: "help three-way"},
	{name: "help-command-flag", args: "explain -h"},
	{name: "help-unknown-command", args: "help frobnicate", exit: 2},
	{name: "help-diff", args: "help diff"},
	{name: "help-apply", args: "help apply"},
	{name: "help-vet", args: "help vet"},
}...)
