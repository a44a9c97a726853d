# PHP-FPM with the ratelimit extension, in two stages: the build stage has the
# toolchain (clang for ext-php-rs's PHP bindings, Rust) and runs PIE's steps;
# the runtime stage is the same official image with only the built .so and
# its ini added. Build: docker build -t app-php .
# Run:   docker run -e RATELIMIT_REDIS_URL=redis://redis:6379 app-php
# (docs/install.md, "The official Docker images"; scripts/check-official-layout.bash
# runs these steps in a root laid out as the image.)
FROM php:8.4-fpm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends clang libclang-dev curl ca-certificates \
 && curl --proto '=https' -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
ENV PATH=/root/.cargo/bin:$PATH
COPY . /usr/src/ratelimit
# PIE's steps in composer.json's build-path, then what the runtime stage takes, in /out.
RUN cd /usr/src/ratelimit/phpize \
 && phpize \
 && ./configure \
 && make \
 && make install \
 && mkdir -p /out \
 && cp "$(php-config --extension-dir)/ratelimit.so" /usr/src/ratelimit/docker/ratelimit.ini /out/

FROM php:8.4-fpm
COPY --from=build /out/ /usr/src/ratelimit-build/
# Only the .so and its ini: into this PHP's extension dir and scan dir, as docker-php-ext-enable does.
RUN mv /usr/src/ratelimit-build/ratelimit.so "$(php-config --extension-dir)/" \
 && mv /usr/src/ratelimit-build/ratelimit.ini "$PHP_INI_DIR/conf.d/docker-php-ext-ratelimit.ini" \
 && rmdir /usr/src/ratelimit-build \
 && php -m | grep -x ratelimit
# The default Redis: a compose service named redis. Set it per deployment.
ENV RATELIMIT_REDIS_URL=redis://redis:6379
