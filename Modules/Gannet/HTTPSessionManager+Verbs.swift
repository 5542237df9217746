extension HTTPSessionManager {
    /// Called with the task and the value ``HTTPSessionManager/responseSerializer`` produced.
    public typealias Success = @Sendable (SessionTask, (any Sendable)?) -> Void
    /// Called with the task (`nil` when the request could not be built) and the error.
    public typealias Failure = @Sendable (SessionTask?, any Error) -> Void
    /// Called with a task's upload or download `Progress`.
    public typealias ProgressHandler = @Sendable (Progress) -> Void

    /// Creates, without resuming it, a data task for `method` and `urlString` (resolved against
    /// ``baseURL``), with `parameters` encoded by ``requestSerializer`` and `headers` set on the
    /// request (AFNetworking 4's `dataTaskWithHTTPMethod:URLString:parameters:headers:…`).
    ///
    /// When the request cannot be built, `failure` runs with a `nil` task on the completion
    /// queue and the method returns `nil`.
    public func dataTask(
        withHTTPMethod method: String,
        URLString urlString: String,
        parameters: Parameters?,
        headers: [String: String]?,
        uploadProgress: ProgressHandler?,
        downloadProgress: ProgressHandler?,
        success: Success?,
        failure: Failure?
    ) -> SessionTask? {
        let request: URLRequest
        do {
            request = try self.request(method: method, urlString: urlString, parameters: parameters, headers: headers)
        } catch {
            deliverEarlyFailure(error, to: failure)
            return nil
        }
        return dataTask(
            with: request,
            uploadProgress: uploadProgress,
            downloadProgress: downloadProgress,
            success: success,
            failure: failure
        )
    }

    /// A data task for a built request, with AFNetworking's success/failure split.
    func dataTask(
        with request: URLRequest,
        uploadProgress: ProgressHandler?,
        downloadProgress: ProgressHandler?,
        success: Success?,
        failure: Failure?
    ) -> SessionTask {
        let reference = TaskBox()
        let task = session.dataTask(
            with: request,
            serializer: AnyResponseSerializer(responseSerializer),
            uploadProgress: uploadProgress,
            downloadProgress: downloadProgress
        ) { response in
            let task = reference.task
            switch response.result {
            case .success(let value):
                if let task {
                    success?(task, value)
                } else {
                    failure?(nil, GannetError(.transport, "The task completed before it existed"))
                }
            case .failure(let error):
                failure?(task, error)
            }
        }
        reference.set(task)
        return task
    }

    /// Starts a data task and returns it, or `nil` after a failure to build the request.
    private func resumed(_ task: SessionTask?) -> SessionTask? {
        task?.resume()
        return task
    }

    /// `GET`: parameters in the query string (with the default serializer). Resumed at once.
    ///
    /// ```swift
    /// manager.GET("get", parameters: ["q": "gannet"], success: { task, json in
    ///     print(json as Any)
    /// }, failure: { task, error in
    ///     print(error)
    /// })
    /// ```
    @discardableResult
    public func GET(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        progress downloadProgress: ProgressHandler? = nil,
        success: Success? = nil,
        failure: Failure? = nil
    ) -> SessionTask? {
        resumed(
            dataTask(
                withHTTPMethod: "GET",
                URLString: urlString,
                parameters: parameters,
                headers: headers,
                uploadProgress: nil,
                downloadProgress: downloadProgress,
                success: success,
                failure: failure
            )
        )
    }

    /// `HEAD`: `success` gets the task only (its `response` holds the headers). Resumed at once.
    @discardableResult
    public func HEAD(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        success: (@Sendable (SessionTask) -> Void)? = nil,
        failure: Failure? = nil
    ) -> SessionTask? {
        var taskOnly: Success?
        if let success {
            taskOnly = { task, _ in success(task) }
        }
        return resumed(
            dataTask(
                withHTTPMethod: "HEAD",
                URLString: urlString,
                parameters: parameters,
                headers: headers,
                uploadProgress: nil,
                downloadProgress: nil,
                success: taskOnly,
                failure: failure
            )
        )
    }

    /// `POST`: parameters in the body (a URL-encoded form with the default serializer).
    /// Resumed at once.
    @discardableResult
    public func POST(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        progress uploadProgress: ProgressHandler? = nil,
        success: Success? = nil,
        failure: Failure? = nil
    ) -> SessionTask? {
        resumed(
            dataTask(
                withHTTPMethod: "POST",
                URLString: urlString,
                parameters: parameters,
                headers: headers,
                uploadProgress: uploadProgress,
                downloadProgress: nil,
                success: success,
                failure: failure
            )
        )
    }

    /// `POST` with a streamed `multipart/form-data` body: `parameters` become form fields
    /// first, then `block` appends parts (AFNetworking's
    /// `POST:parameters:headers:constructingBodyWithBlock:progress:success:failure:`). Files
    /// are read as the body is sent, never loaded whole. Resumed at once.
    ///
    /// ```swift
    /// manager.POST("upload", parameters: ["album": "Birds"]) { formData in
    ///     try formData.appendPart(fileURL: photoURL, name: "photo")
    /// } progress: { progress in
    ///     print(progress.fractionCompleted)
    /// } success: { task, response in … }
    /// ```
    ///
    /// The multipart body is built with the configuration of ``requestSerializer`` (default
    /// headers, string encoding).
    /// The body's own `Content-Type` (with its boundary) and `Content-Length` replace any given
    /// in `headers`. An error thrown by `block` reaches `failure` with a `nil` task.
    @discardableResult
    public func POST(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        constructingBodyWith block: (inout MultipartFormData) throws -> Void,
        progress uploadProgress: ProgressHandler? = nil,
        success: Success? = nil,
        failure: Failure? = nil
    ) -> SessionTask? {
        let request: URLRequest
        do {
            request = try multipartRequest(
                urlString: urlString,
                parameters: parameters,
                headers: headers,
                constructingBodyWith: block
            )
        } catch {
            deliverEarlyFailure(error, to: failure)
            return nil
        }
        return resumed(
            dataTask(
                with: request,
                uploadProgress: uploadProgress,
                downloadProgress: nil,
                success: success,
                failure: failure
            )
        )
    }

    /// `PUT`: parameters in the body. Resumed at once.
    @discardableResult
    public func PUT(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        progress uploadProgress: ProgressHandler? = nil,
        success: Success? = nil,
        failure: Failure? = nil
    ) -> SessionTask? {
        resumed(
            dataTask(
                withHTTPMethod: "PUT",
                URLString: urlString,
                parameters: parameters,
                headers: headers,
                uploadProgress: uploadProgress,
                downloadProgress: nil,
                success: success,
                failure: failure
            )
        )
    }

    /// `PATCH`: parameters in the body. Resumed at once.
    @discardableResult
    public func PATCH(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        progress uploadProgress: ProgressHandler? = nil,
        success: Success? = nil,
        failure: Failure? = nil
    ) -> SessionTask? {
        resumed(
            dataTask(
                withHTTPMethod: "PATCH",
                URLString: urlString,
                parameters: parameters,
                headers: headers,
                uploadProgress: uploadProgress,
                downloadProgress: nil,
                success: success,
                failure: failure
            )
        )
    }

    /// `DELETE`: parameters in the query string (with the default serializer). Resumed at once.
    @discardableResult
    public func DELETE(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        success: Success? = nil,
        failure: Failure? = nil
    ) -> SessionTask? {
        resumed(
            dataTask(
                withHTTPMethod: "DELETE",
                URLString: urlString,
                parameters: parameters,
                headers: headers,
                uploadProgress: nil,
                downloadProgress: nil,
                success: success,
                failure: failure
            )
        )
    }

    /// The multipart `POST` request: URL, headers, then the body from the serializer's
    /// configuration, parameters and `block`.
    func multipartRequest(
        method: String = "POST",
        urlString: String,
        parameters: Parameters?,
        headers: [String: String]?,
        constructingBodyWith block: (inout MultipartFormData) throws -> Void
    ) throws -> URLRequest {
        let base = try baseRequest(method: method, urlString: urlString, headers: headers)
        var request = try requestSerializer.multipartFormRequest(
            method: method,
            urlString: base.url?.absoluteString ?? urlString,
            parameters: parameters,
            constructingBodyWith: block
        )
        let framing: Set<String> = ["content-type", "content-length"]
        for (field, value) in base.allHTTPHeaderFields ?? [:] where !framing.contains(field.lowercased()) {
            request.setValue(value, forHTTPHeaderField: field)
        }
        try RequestValidation.validate(request)
        return request
    }
}
