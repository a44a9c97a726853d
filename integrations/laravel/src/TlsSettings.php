<?php

namespace RateLimit\Laravel;

/**
 * The SSL stream options a Laravel Redis connection passes on (phpredis:
 * `context => ['stream' => […]]`, predis: `ssl => […]`; both PHP's `ssl`
 * stream context options) as the extension's `ssl` array: `cafile`,
 * `local_cert`, `local_pk`, `verify_peer`.
 *
 * The extension always verifies a peer it verifies at all (chain, expiry and
 * host name), against `cafile` or the system's trust store. Options that would
 * make PHP's client accept another peer than that, or that the extension has
 * no equivalent for, would make the two connect differently: then the drop-in
 * steps aside (StepAside) and names the option, rather than connect otherwise
 * than stock Laravel or not at all.
 */
final class TlsSettings
{
    /** Options that change nothing the extension does differently, when they have these values. */
    private const SAME_AS_EXTENSION = [
        'SNI_enabled' => true,
        'disable_compression' => true,
        'capture_peer_cert' => null,
        'capture_peer_cert_chain' => null,
    ];

    /**
     * @param array<string, mixed> $options PHP ssl stream context options
     * @param string $host the host connected to (a peer_name equal to it changes nothing)
     * @return array<string, mixed> the extension's `ssl` entry
     * @throws StepAside naming an option the extension cannot honour
     */
    public static function of(array $options, string $host): array
    {
        $ssl = [];
        $verify = !array_key_exists('verify_peer', $options) || (bool) $options['verify_peer'];
        foreach ($options as $name => $value) {
            switch ($name) {
                case 'cafile':
                case 'local_cert':
                case 'local_pk':
                    if ($value !== null && $value !== '') {
                        $ssl[$name] = (string) $value;
                    }
                    break;
                case 'verify_peer':
                    $ssl['verify_peer'] = $verify;
                    break;
                case 'verify_peer_name':
                case 'allow_self_signed':
                    // The extension checks the host name whenever it verifies, and never takes a self-signed peer then.
                    $loosens = $name === 'verify_peer_name' ? !$value : (bool) $value;
                    if ($loosens && $verify) {
                        throw new StepAside(sprintf('TLS option %s => %s with verify_peer on: the extension verifies the peer whole (chain and host name) or not at all (verify_peer => false)', $name, var_export($value, true)));
                    }
                    break;
                case 'peer_name':
                    if ((string) $value !== $host) {
                        throw new StepAside(sprintf('TLS option peer_name "%s" differs from the host "%s": the extension verifies the host it connects to', $value, $host));
                    }
                    break;
                default:
                    if (!array_key_exists($name, self::SAME_AS_EXTENSION) || (self::SAME_AS_EXTENSION[$name] !== null && (bool) $value !== self::SAME_AS_EXTENSION[$name])) {
                        throw new StepAside(sprintf('TLS option %s is not one the extension takes (cafile, local_cert, local_pk, verify_peer)', $name));
                    }
            }
        }
        return $ssl;
    }
}
