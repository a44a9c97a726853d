<?php

declare(strict_types=1);

namespace RateLimit\Yii3;

use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Server\MiddlewareInterface;
use Psr\Http\Server\RequestHandlerInterface;
use Psr\Log\LoggerInterface;

/**
 * Put before LimitRequestsMiddleware: when Redis fails and ratelimit.on_error
 * is throw, the RateLimiterException of ExtensionCounter (or of any limiter
 * further in) becomes a 503 with the cause logged, where an error handler
 * would answer 500. With on_error allow, deny or local nothing is thrown.
 */
final class ServiceUnavailableMiddleware implements MiddlewareInterface
{
    /** @param LoggerInterface|null $logger null: PHP's error_log() */
    public function __construct(private ResponseFactoryInterface $responseFactory, private ?LoggerInterface $logger = null)
    {
    }

    public function process(ServerRequestInterface $request, RequestHandlerInterface $handler): ResponseInterface
    {
        try {
            return $handler->handle($request);
        } catch (\RateLimiterException $e) {
            $message = 'rate limiter unavailable: ' . $e->getMessage();
            $this->logger === null ? error_log($message) : $this->logger->error($message, ['exception' => $e]);
            $response = $this->responseFactory->createResponse(503);
            $response->getBody()->write('Service Unavailable');
            return $response;
        }
    }
}
