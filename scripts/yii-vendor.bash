#!/usr/bin/env bash
# Lays out the gitignored vendor/ directories the Yii tests run in, where
# `composer install` in each integration would put them, from git
# repositories (no Composer registry needed): a release tag of each package,
# extracted with `git archive`, and a vendor/autoload.php with the packages'
# PSR-4 maps (what Composer's would register for them). Nothing of a framework
# is committed to this project.
#
#   integrations/yii1/vendor/yiisoft/yii           Yii 1.1.32
#   integrations/yii2/vendor/yiisoft/yii2          Yii 2.0.55 (the framework/ directory, as the
#                                                  yiisoft/yii2 Composer package ships it)
#   integrations/yii3/vendor/...                   yiisoft/rate-limiter 3.0.0 and what it and a
#                                                  minimal Yii 3 web app (yii-http, middleware-dispatcher,
#                                                  di, cache-file, httpsoft PSR-7) require
#
# Where the repositories are: YII_GIT_ROOT, a directory holding each one as
# <owner>+<name>/repo or <owner>/<name>.git (bare or not). A repository that
# is missing leaves its framework out, said on stderr; the tests of that
# framework then skip, naming it. Exit status 0 unless extracting fails.
# The tests also take a vendor directory from elsewhere: RATELIMIT_YII1_VENDOR,
# RATELIMIT_YII2_VENDOR, RATELIMIT_YII3_VENDOR (see docs/frameworks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${YII_GIT_ROOT:-}
if [ -z "$root" ] || [ ! -d "$root" ]; then
    echo "yii-vendor: no directory of the Yii repositories (YII_GIT_ROOT='$root'); nothing laid out, the Yii tests will skip" >&2
    exit 0
fi

# The git dir of owner/name under $root, or nothing.
git_dir() {
    local d
    for d in "$root/$1+$2/repo" "$root/$1/$2.git" "$root/$1/$2"; do
        if [ -d "$d" ] && git --git-dir="$d" rev-parse --git-dir >/dev/null 2>&1; then echo "$d"; return; fi
        if [ -d "$d/.git" ]; then echo "$d/.git"; return; fi
    done
}

# extract VENDOR OWNER/NAME TAG [SUBDIR]: the tag's tree (or its SUBDIR) into VENDOR/OWNER/NAME.
# Composer names the php-fig packages psr/*.
extract() {
    local vendor=$1 repo=$2 tag=$3 sub=${4:-} gd dest
    gd=$(git_dir "${repo%/*}" "${repo#*/}")
    if [ -z "$gd" ]; then echo "yii-vendor: $repo not found under $root" >&2; return 1; fi
    dest="$vendor/${repo/php-fig\//psr/}"
    rm -rf "$dest"
    mkdir -p "$dest"
    if [ -n "$sub" ]; then
        local strip
        strip=$(awk -F/ '{print NF}' <<< "$sub")
        git --git-dir="$gd" archive "$tag" "$sub" | tar -x -C "$dest" --strip-components="$strip"
    else
        git --git-dir="$gd" archive "$tag" | tar -x -C "$dest"
    fi
}

# vendor/autoload.php: the PSR-4 prefixes of every package's composer.json, longest first.
write_autoload() {
    php -n -r '
        $vendor = $argv[1];
        $map = [];
        foreach (glob("$vendor/*/*/composer.json") as $json) {
            $c = json_decode(file_get_contents($json), true);
            foreach ($c["autoload"]["psr-4"] ?? [] as $prefix => $dirs) {
                foreach ((array) $dirs as $d) {
                    $map[] = [$prefix, substr(dirname($json), strlen($vendor) + 1) . "/" . rtrim($d, "/")];
                }
            }
        }
        usort($map, fn ($a, $b) => strlen($b[0]) <=> strlen($a[0]));
        $code = "<?php\n// Written by scripts/yii-vendor.bash: the packages\x27 PSR-4 maps, as Composer\x27s autoloader has them.\n"
            . "spl_autoload_register(static function (string \$class): void {\n    foreach (" . var_export($map, true) . " as [\$prefix, \$dir]) {\n"
            . "        if (strncmp(\$class, \$prefix, strlen(\$prefix)) === 0) {\n"
            . "            \$file = __DIR__ . \"/\$dir/\" . str_replace(\"\\\\\", \"/\", substr(\$class, strlen(\$prefix))) . \".php\";\n"
            . "            if (is_file(\$file)) { require \$file; return; }\n        }\n    }\n});\n";
        file_put_contents("$vendor/autoload.php", $code);
    ' "$1"
}

laid=()
v=integrations/yii1/vendor
if extract $v yiisoft/yii 1.1.32; then laid+=("Yii 1.1.32 in $v"); fi

v=integrations/yii2/vendor
if extract $v yiisoft/yii2 2.0.55 framework; then
    # The app's Composer autoloader: Yii 2 autoloads its own classes (Yii::autoload).
    printf '<?php\n// Written by scripts/yii-vendor.bash: Yii 2 autoloads its own classes (Yii::autoload).\n' > $v/autoload.php
    laid+=("Yii 2.0.55 in $v")
fi

v=integrations/yii3/vendor
ok=1
for spec in yiisoft/rate-limiter@3.0.0 yiisoft/http@1.3.0 yiisoft/yii-http@1.1.1 yiisoft/middleware-dispatcher@5.4.0 \
    yiisoft/di@1.4.1 yiisoft/definitions@3.4.1 yiisoft/friendly-exception@1.2.0 yiisoft/injector@1.2.1 \
    yiisoft/cache-file@3.2.0 httpsoft/http-message@1.1.6 httpsoft/http-server-request@1.1.1 \
    php-fig/http-message@2.0 php-fig/http-factory@1.1.0 php-fig/http-server-handler@1.0.2 \
    php-fig/http-server-middleware@1.0.2 php-fig/simple-cache@3.0.0 php-fig/container@2.0.2 \
    php-fig/event-dispatcher@1.0.0; do
    extract $v "${spec%@*}" "${spec#*@}" || ok=0
done
if [ $ok = 1 ]; then write_autoload $v; laid+=("yiisoft/rate-limiter 3.0.0 and its Yii 3 app in $v"); else rm -rf $v; fi

for l in "${laid[@]}"; do echo "yii-vendor: $l"; done
