package org.jwd.bench.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Spring Cloud Gateway as {@code src/bench/run}'s target {@code gateway}: a Spring Boot application with nothing but
 * the reactive gateway and its configuration ({@code application.properties}: one route, {@code lb://backends},
 * Spring Cloud LoadBalancer's round robin over the two instances {@code src/bench/run} names on the command line, no
 * stickiness: the gateway has none). Started as {@code java -cp ... org.jwd.bench.gateway.GatewayMain
 * --server.port=P --spring.cloud.discovery.client.simple.instances.backends[0].uri=http://127.0.0.1:B1 ...}.
 */
@SpringBootApplication
public class GatewayMain {
    public static void main(String[] args) {
        SpringApplication.run(GatewayMain.class, args);
    }
}
